import Foundation
import Locking
import Notifications
import PushSinks
import Testing
import TestSupport

/// notify-send with actions: the button pressed comes back as the answer.
@Suite(.serialized) struct DesktopSinkTests {
  final class Answers: Sendable {
    let arrived = DispatchSemaphore(value: 0)
    private let actions = Locked<[ReminderAction]>([])
    var all: [ReminderAction] { actions.withLock { $0 } }
    func add(_ action: ReminderAction) {
      actions.withLock { $0.append(action) }
      arrived.signal()
    }
  }

  /// A stand-in for notify-send: records its arguments, prints the action to press.
  func fakeCommand(_ directory: TemporaryDirectory, press: String) throws -> (command: String, log: String) {
    let log = directory.file("calls.txt")
    let command = directory.write("notify-send", "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '\(log)'\necho '\(press)'\n")
    chmod(command, 0o755)
    return (command, log)
  }

  @Test func passesTheSharedSinkSuite() throws {
    let directory = TemporaryDirectory()
    let fake = try fakeCommand(directory, press: "")
    try NotificationSinkConformance.verify(
      make: { try DesktopSink(command: fake.command, answer: { _, _ in }) },
      delivered: { _ in
        // A real child process is writing: poll for its record.
        for _ in 0..<5000 {
          if let text = try? String(contentsOfFile: fake.log, encoding: .utf8), text.contains("--action=later") { return text }
          usleep(2000)
        }
        return (try? String(contentsOfFile: fake.log, encoding: .utf8)) ?? ""
      })
  }

  @Test func theButtonPressedBecomesTheAnswer() throws {
    let directory = TemporaryDirectory()
    let fake = try fakeCommand(directory, press: "later")
    let answers = Answers()
    let sink = try DesktopSink(command: fake.command, answer: { _, action in answers.add(action) })
    try sink.deliver(NotificationSinkConformance.sample(title: "Buy milk", body: "at Alepa"))
    #expect(answers.arrived.wait(timeout: .now() + 10) == .success)
    #expect(answers.all == [.remindLater(3600)])
  }

  @Test func aMissingNotifySendIsNamed() {
    #expect(throws: NotificationError.self) { try DesktopSink(command: "/nonexistent/notify-send", answer: { _, _ in }) }
  }

  static var desktopStack: Bool {
    ["/usr/bin/notify-send", "/usr/bin/dbus-daemon"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
      && (try? Process.run(URL(fileURLWithPath: "/usr/bin/python3"), arguments: ["-c", "import dbus, gi"]))
        .map { process -> Bool in
          process.waitUntilExit()
          return process.terminationStatus == 0
        } ?? false
  }

  /// The real notify-send over a private D-Bus session, against a fake
  /// notification server that presses Mark Done.
  @Test(.enabled(if: desktopStack)) func realNotifySendOverDBus() throws {
    let directory = TemporaryDirectory()
    let bus = Process()
    bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
    bus.arguments = ["--session", "--nofork", "--print-address=1"]
    let address = Pipe()
    bus.standardOutput = address
    try bus.run()
    defer { kill(bus.processIdentifier, SIGKILL) }
    let line = String(decoding: address.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(line.hasPrefix("unix:"))
    var environment = ProcessInfo.processInfo.environment
    environment["DBUS_SESSION_BUS_ADDRESS"] = line
    let record = directory.file("notifications.jsonl")
    let server = Process()
    server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    server.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/fake-notifications.py").path, record, "done"]
    server.environment = environment
    try server.run()
    defer { kill(server.processIdentifier, SIGKILL) }
    // Real processes starting: poll for the server's ready file.
    for _ in 0..<5000 where !FileManager.default.fileExists(atPath: record + ".ready") { usleep(2000) }
    let answers = Answers()
    let sink = try DesktopSink(environment: environment, answer: { _, action in answers.add(action) })
    try sink.deliver(NotificationSinkConformance.sample(title: "Buy milk", body: "at Alepa (12 m)"))
    #expect(answers.arrived.wait(timeout: .now() + 15) == .success)
    #expect(answers.all == [.markDone])
    let shown = try String(contentsOfFile: record, encoding: .utf8)
    #expect(shown.contains("\"summary\": \"Buy milk\""))
    #expect(shown.contains("\"done\", \"Mark Done\", \"later\", \"Remind Later\""))
  }
}

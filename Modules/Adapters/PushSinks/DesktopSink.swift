import Foundation
import Notifications

/// `desktop`: a freedesktop notification through `notify-send` with Mark
/// Done and Remind Later as actions; the button pressed is acted on
/// through `answer`. Each notification waits for its answer on its own
/// thread, so delivery never blocks.
public final class DesktopSink: NotificationSink, Sendable {
  public let name = "desktop"
  let command: String
  let answer: @Sendable (ReminderNotification, ReminderAction) -> Void
  let log: @Sendable (String) -> Void
  let environment: [String: String]?

  /// `command` is notify-send (libnotify-bin) or anything that takes its
  /// arguments and prints the chosen action's name.
  public init(
    command: String = "/usr/bin/notify-send", environment: [String: String]? = nil,
    answer: @escaping @Sendable (ReminderNotification, ReminderAction) -> Void, log: @escaping @Sendable (String) -> Void = { _ in }
  ) throws {
    guard FileManager.default.isExecutableFile(atPath: command) else {
      throw NotificationError(sink: "desktop", reason: "\(command) is missing (apt-get install libnotify-bin)")
    }
    self.command = command
    self.environment = environment
    self.answer = answer
    self.log = log
  }

  public func deliver(_ notification: ReminderNotification) throws {
    // Launching can fail for an instant while another thread's fork still
    // holds the program open for writing (ETXTBSY: a notify-send being
    // installed or replaced): try twice more before giving up.
    var attempt = 0
    while true {
      do {
        return try launch(notification)
      } catch {
        attempt += 1
        if attempt >= 3 { throw error }
        usleep(50_000)
      }
    }
  }

  private func launch(_ notification: ReminderNotification) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command)
    process.arguments =
      ["--app-name=WhileHere", "--expire-time=0"]
      + notification.category.buttons.map { "--action=\($0.action.identifier)=\($0.title)" }
      + ["--", notification.title, notification.body]
    if let environment { process.environment = environment }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw NotificationError(sink: name, reason: "cannot run \(command): \(error)")
    }
    let answer = answer
    let log = log
    Thread.detachNewThread {
      let chosen = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      process.waitUntilExit()
      guard !chosen.isEmpty else { return }
      guard let button = notification.category.buttons.first(where: { $0.action.identifier == chosen }) else {
        log("desktop: unknown action '\(chosen)' for \(notification.id)")
        return
      }
      answer(notification, button.action)
    }
  }
}

import Analytics
import Foundation

/// Leaves a small report when the program dies of a fatal signal (a Swift
/// runtime trap is SIGILL or SIGTRAP): the version, the program, the
/// signal, and the last few breadcrumbs, which are command names only. The
/// handler does nothing but async-signal-safe `open`/`write`, from buffers
/// prepared beforehand, then dies as it would have.
public enum CrashReporter {
  public static let fileName = "crash-report.txt"
  static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
  static let breadcrumbSlots = 4
  static let breadcrumbWidth = 32

  // Written before any crash can happen, read only by the handler.
  nonisolated(unsafe) static var path: UnsafeMutablePointer<CChar>?
  nonisolated(unsafe) static var header: UnsafeMutablePointer<CChar>?
  nonisolated(unsafe) static var headerLength = 0
  nonisolated(unsafe) static var crumbs = UnsafeMutablePointer<CChar>.allocate(capacity: breadcrumbSlots * breadcrumbWidth)
  nonisolated(unsafe) static var nextCrumb = 0

  /// The report's path for a data directory (beside the default store).
  public static func reportPath(_ environment: [String: String]) -> String {
    XDG.dataHome(environment) + "/whilehere/" + fileName
  }

  public static func install(program: Program, version: Version, environment: [String: String]) {
    let file = reportPath(environment)
    try? FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    path = strdup(file)
    let text = "whilehere-crash 1\nprogram=\(program.rawValue)\nversion=\(version.text)\n"
    header = strdup(text)
    headerLength = text.utf8.count
    crumbs.initialize(repeating: 0, count: breadcrumbSlots * breadcrumbWidth)
    for signal in signals {
      Foundation.signal(signal) { received in
        CrashReporter.write(signal: received)
        Foundation.signal(received, SIG_DFL)
        raise(received)
      }
    }
  }

  /// Notes what is running; only values of closed enums belong here.
  public static func breadcrumb(_ command: Command) {
    let slot = crumbs + (nextCrumb % breadcrumbSlots) * breadcrumbWidth
    let bytes = Array(command.rawValue.utf8.prefix(breadcrumbWidth - 1))
    for (index, byte) in bytes.enumerated() { slot[index] = CChar(bitPattern: byte) }
    slot[bytes.count] = 0
    nextCrumb += 1
  }

  /// Async-signal-safe: no allocation, no locks, no Swift strings.
  static func write(signal: Int32) {
    guard let path, let header else { return }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { return }
    _ = Foundation.write(descriptor, header, headerLength)
    var number = Int(signal)
    var digits: (CChar, CChar, CChar, CChar) = (48, 48, 48, 10)
    digits.2 = CChar(48 + number % 10)
    number /= 10
    digits.1 = CChar(48 + number % 10)
    number /= 10
    digits.0 = CChar(48 + number % 10)
    _ = Foundation.write(descriptor, "signal=", 7)
    _ = withUnsafeBytes(of: &digits) { Foundation.write(descriptor, $0.baseAddress, 4) }
    for index in 0..<breadcrumbSlots {
      let slot = crumbs + ((nextCrumb + index) % breadcrumbSlots) * breadcrumbWidth
      let length = strlen(slot)
      guard length > 0 else { continue }
      _ = Foundation.write(descriptor, "ran=", 4)
      _ = Foundation.write(descriptor, slot, length)
      _ = Foundation.write(descriptor, "\n", 1)
    }
    close(descriptor)
  }

  /// A report left by an earlier run.
  public struct Report: Sendable, Equatable, Encodable {
    public let program: String
    public let version: String
    public let signal: Int32
    public let ran: [String]
    public let at: Date?
  }

  public static func pending(_ environment: [String: String]) -> Report? {
    let file = reportPath(environment)
    guard let data = FileManager.default.contents(atPath: file) else { return nil }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    guard lines.first == "whilehere-crash 1" else { return nil }
    var values: [String: String] = [:]
    var ran: [String] = []
    for line in lines.dropFirst() {
      guard let equals = line.firstIndex(of: "=") else { continue }
      let key = String(line[..<equals])
      let value = String(line[line.index(after: equals)...])
      if key == "ran" { ran.append(value) } else { values[key] = value }
    }
    let modified = (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date
    return Report(program: values["program"] ?? "?", version: values["version"] ?? "?", signal: Int32(values["signal"] ?? "") ?? 0, ran: ran, at: modified)
  }

  /// On start: a report left behind goes to the analytics sink if it lets
  /// events through (consent), and is then removed; otherwise it stays for
  /// `whilehere doctor`.
  public static func sendPending(through sink: any AnalyticsSink, allowed: Bool, environment: [String: String]) {
    guard allowed, let report = pending(environment) else { return }
    sink.record(.crashed(Program(rawValue: report.program) ?? .cli, signal: report.signal, version: Version(report.version)))
    sink.flush()
    try? FileManager.default.removeItem(atPath: reportPath(environment))
  }
}

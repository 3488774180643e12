import Foundation
import Notifications

/// `jsonl:PATH`: appends one JSON object per reminder (with its action
/// links) to a file created 0600, for scripts and logs.
public final class JSONLinesSink: NotificationSink, Sendable {
  public let name: String
  let path: String
  let links: (any ActionLinkMaker)?
  private let lock = NSLock()

  public init(path: String, links: (any ActionLinkMaker)?) throws {
    self.path = path
    self.links = links
    name = "jsonl:\(path)"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw NotificationError(sink: name, reason: "cannot open for appending: \(String(cString: strerror(errno)))")
    }
    close(descriptor)
  }

  struct Line: Encodable {
    let id: String
    let task: String
    let title: String
    let body: String
    let firedAt: Date
    let actions: [ActionLink]
  }

  public func deliver(_ notification: ReminderNotification) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    var data = try encoder.encode(
      Line(
        id: notification.id, task: notification.task.rawValue, title: notification.title, body: notification.body,
        firedAt: notification.firedAt, actions: links?.links(for: notification) ?? []))
    data.append(0x0A)
    try lock.withLock {
      let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else {
        throw NotificationError(sink: name, reason: "cannot open for appending: \(String(cString: strerror(errno)))")
      }
      defer { close(descriptor) }
      let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      guard written == data.count else { throw NotificationError(sink: name, reason: "short write") }
    }
  }
}

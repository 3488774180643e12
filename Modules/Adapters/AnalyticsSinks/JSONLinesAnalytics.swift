import Analytics
import Foundation

/// `jsonl:PATH`: one JSON object per event, appended to a 0600 file.
public final class JSONLinesAnalytics: AnalyticsSink, Sendable {
  public let path: String
  public var name: String { "jsonl:\(path)" }
  private let lock = NSLock()

  public init(path: String) {
    self.path = path
  }

  public func record(_ event: AnalyticsEvent) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    guard var line = try? encoder.encode(event) else { return }
    line.append(0x0A)
    lock.withLock {
      let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { return }
      _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      close(descriptor)
    }
  }

  public func flush() {}
}

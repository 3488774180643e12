import Analytics
import Foundation

/// Keeps every event, for tests.
public final class RecordingAnalytics: AnalyticsSink, @unchecked Sendable {
  public let name = "recording"
  private let lock = NSLock()
  private var seen: [AnalyticsEvent] = []
  public private(set) var flushes = 0

  public init() {}

  public var events: [AnalyticsEvent] { lock.withLock { seen } }
  public func record(_ event: AnalyticsEvent) { lock.withLock { seen.append(event) } }
  public func flush() { lock.withLock { flushes += 1 } }
}

/// The shared suite every `AnalyticsSink` passes: events recorded then
/// flushed arrive, as JSON objects naming the event.
public enum AnalyticsSinkConformance {
  public static func verify(make: () throws -> any AnalyticsSink, delivered: (any AnalyticsSink) throws -> [[String: Any]]) throws {
    let sink = try make()
    try expect(!sink.name.isEmpty, "name", "a sink needs a name")
    sink.record(.launched(.cli, version: Version("1.2.3")))
    sink.record(.planMade(regions: 14, leftOut: 3))
    sink.flush()
    let seen = try delivered(sink)
    try expect(seen.count == 2, "deliver", "expected 2 events, got \(seen.count)")
    try expect(seen.first?["event"] as? String == "launched" && seen.first?["version"] as? String == "1.2.3", "encode", "\(seen.first ?? [:])")
    try expect(seen.last?["regions"] as? Int == 14, "encode", "\(seen.last ?? [:])")
  }
}

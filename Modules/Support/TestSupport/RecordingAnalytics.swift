import Analytics
import Foundation
import Locking

/// Keeps every event, for tests.
public final class RecordingAnalytics: AnalyticsSink, Sendable {
  public let name = "recording"
  private let state = Locked<(events: [AnalyticsEvent], flushes: Int)>(([], 0))

  public init() {}

  public var events: [AnalyticsEvent] { state.withLock { $0.events } }
  public var flushes: Int { state.withLock { $0.flushes } }
  public func record(_ event: AnalyticsEvent) { state.withLock { $0.events.append(event) } }
  public func flush() { state.withLock { $0.flushes += 1 } }
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

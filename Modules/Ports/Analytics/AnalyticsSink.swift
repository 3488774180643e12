/// Where usage events go (a file, a self-hosted collector, nowhere).
///
/// Contract (checked by `AnalyticsSinkConformance` in TestSupport): `record`
/// never blocks for long and never throws; `flush` hands on what is
/// buffered; events carry nothing personal by construction
/// (`AnalyticsEvent`).
public protocol AnalyticsSink: AnyObject, Sendable {
  var name: String { get }
  func record(_ event: AnalyticsEvent)
  func flush()
}

/// `noop`: the default.
public final class NoopAnalytics: AnalyticsSink {
  public let name = "noop"
  public init() {}
  public func record(_ event: AnalyticsEvent) {}
  public func flush() {}
}

/// Several sinks at once.
public final class MultiplexAnalytics: AnalyticsSink {
  public let sinks: [any AnalyticsSink]
  public var name: String { sinks.map(\.name).joined(separator: "+") }
  public init(_ sinks: [any AnalyticsSink]) { self.sinks = sinks }
  public func record(_ event: AnalyticsEvent) { sinks.forEach { $0.record(event) } }
  public func flush() { sinks.forEach { $0.flush() } }
}

/// Passes events on only while the person has said yes.
public final class ConsentGate: AnalyticsSink {
  public let inner: any AnalyticsSink
  let allowed: @Sendable () -> Bool
  public var name: String { inner.name }

  public init(_ inner: any AnalyticsSink, allowed: @escaping @Sendable () -> Bool) {
    self.inner = inner
    self.allowed = allowed
  }

  public func record(_ event: AnalyticsEvent) { if allowed() { inner.record(event) } }
  public func flush() { if allowed() { inner.flush() } }
}

import Foundation
import Locking
import Notifications

/// Runs deliveries off the caller's thread and retries failures with
/// exponential backoff, so a slow or down receiver never holds up location
/// ingest. What happened is counted for `whilehere doctor` and logged.
public final class DeliveryQueue: Sendable {
  public struct Status: Sendable, Equatable, Codable {
    public var delivered = 0
    public var retrying = 0
    public var failed = 0
    public var lastError: String?
  }

  /// Attempts after the first, and the first delay (doubling each time, at most `maxDelay`).
  public let retries: Int
  public let firstDelay: TimeInterval
  public let maxDelay: TimeInterval
  private let queue: DispatchQueue
  private let log: @Sendable (String) -> Void
  private let counts = Locked(Status())
  private let idle = DispatchGroup()

  public init(
    label: String, retries: Int = 6, firstDelay: TimeInterval = 2, maxDelay: TimeInterval = 300,
    log: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.retries = retries
    self.firstDelay = firstDelay
    self.maxDelay = maxDelay
    self.log = log
    queue = DispatchQueue(label: "whilehere.delivery.\(label)")
  }

  public var status: Status { counts.withLock { $0 } }

  /// Queues `attempt`; returns at once. `settled` is called once the
  /// attempt succeeded or the queue gave up on it.
  public func submit(_ what: String, settled: @escaping @Sendable () -> Void = {}, _ attempt: @escaping @Sendable () throws -> Void) {
    idle.enter()
    queue.async { self.run(what, attempt, settled, try: 0) }
  }

  /// Blocks until every queued delivery succeeded or gave up (shutdown, tests).
  public func drain(timeout: TimeInterval = 30) -> Bool {
    idle.wait(timeout: .now() + timeout) == .success
  }

  private func run(_ what: String, _ attempt: @escaping @Sendable () throws -> Void, _ settled: @escaping @Sendable () -> Void, try number: Int) {
    do {
      try attempt()
      counts.withLock { counts in
        counts.delivered += 1
        if number > 0 { counts.retrying -= 1 }
      }
      settled()
      idle.leave()
    } catch {
      let permanent = (error as? NotificationError)?.permanent == true
      guard number < retries, !permanent else {
        counts.withLock { counts in
          counts.failed += 1
          if number > 0 { counts.retrying -= 1 }
          counts.lastError = "\(error)"
        }
        log(
          permanent
            ? "delivery of \(what) refused, not retried (fix the sink's settings): \(error)"
            : "delivery of \(what) failed for good after \(number + 1) attempts: \(error)")
        settled()
        idle.leave()
        return
      }
      let delay = min(maxDelay, firstDelay * pow(2, Double(number)))
      counts.withLock { counts in
        if number == 0 { counts.retrying += 1 }
        counts.lastError = "\(error)"
      }
      log("delivery of \(what) failed (attempt \(number + 1)), retrying in \(Int(delay.rounded())) s: \(error)")
      queue.asyncAfter(deadline: .now() + delay) { self.run(what, attempt, settled, try: number + 1) }
    }
  }
}

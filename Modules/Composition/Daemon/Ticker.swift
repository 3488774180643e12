import Dispatch
import Locking

/// Runs `handler` every `interval` seconds on a queue of its own until
/// cancelled: the daemon's clock for sessions, snoozes, flushes and sweeps.
/// A tick in progress when `cancel` is called finishes; none starts after.
final class Ticker: Sendable {
  private let queue: DispatchQueue
  private let interval: Double
  private let handler: @Sendable () -> Void
  private let cancelled = Locked(false)

  init(label: String, interval: Double, handler: @escaping @Sendable () -> Void) {
    queue = DispatchQueue(label: label)
    self.interval = interval
    self.handler = handler
  }

  /// Schedules the first tick one interval from now.
  func start() {
    queue.asyncAfter(deadline: .now() + interval) { [self] in fire() }
  }

  func cancel() { cancelled.withLock { $0 = true } }

  private func fire() {
    guard !cancelled.withLock({ $0 }) else { return }
    handler()
    queue.asyncAfter(deadline: .now() + interval) { [self] in fire() }
  }
}

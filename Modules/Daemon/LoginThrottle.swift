import Foundation

/// Slows password guessing: after `limit` failures from one address or for
/// one name within `window`, further attempts are refused without checking
/// until the window has passed since the last failure.
final class LoginThrottle: @unchecked Sendable {
  let limit: Int
  let window: TimeInterval
  private let lock = NSLock()
  private var failures: [String: [Date]] = [:]

  init(limit: Int = 5, window: TimeInterval = 300) {
    self.limit = limit
    self.window = window
  }

  /// Seconds to wait before trying again, or nil when allowed.
  func retryAfter(keys: [String], now: Date) -> Int? {
    lock.withLock {
      // The usual case: nobody has failed lately.
      if failures.isEmpty { return nil }
      let waits = keys.compactMap { key -> TimeInterval? in
        let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
        failures[key] = recent.isEmpty ? nil : recent
        guard recent.count >= limit, let last = recent.last else { return nil }
        return window - now.timeIntervalSince(last)
      }
      return waits.max().map { max(1, Int($0.rounded(.up))) }
    }
  }

  func failed(keys: [String], now: Date) {
    lock.withLock {
      // Bounded memory under a flood of made-up names: forget the oldest.
      if failures.count > 10_000 { failures.removeAll() }
      for key in keys { failures[key, default: []].append(now) }
    }
  }

  func succeeded(keys: [String]) {
    lock.withLock { for key in keys { failures[key] = nil } }
  }
}

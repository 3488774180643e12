import Foundation
import Locking

/// Slows password guessing: after `limit` failures from one address or for
/// one name within `window`, further attempts are refused without checking
/// until the window has passed since the last failure.
final class LoginThrottle: Sendable {
  let limit: Int
  let window: TimeInterval
  private let state = Locked<[String: [Date]]>([:])

  init(limit: Int = 5, window: TimeInterval = 300) {
    self.limit = limit
    self.window = window
  }

  /// Seconds to wait before trying again, or nil when allowed.
  func retryAfter(keys: [String], now: Date) -> Int? {
    state.withLock { failures in
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
    state.withLock { failures in
      // Bounded memory under a flood of made-up names: forget the oldest.
      if failures.count > 10_000 { failures.removeAll() }
      for key in keys { failures[key, default: []].append(now) }
    }
  }

  func succeeded(keys: [String]) {
    state.withLock { failures in for key in keys { failures[key] = nil } }
  }
}

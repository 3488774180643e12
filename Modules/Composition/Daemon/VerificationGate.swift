import Dispatch
import Foundation
import Locking

/// Bounds the password work: Argon2id is slow and takes tens of MiB on
/// purpose, so a restart storm of phones (or a flood of wrong passwords)
/// must not run hundreds at once. At most `running` verifications run, at
/// most `waiting` more wait for a slot; beyond that the caller is told to
/// come back, and requests that need no verification (/health, phones whose
/// credentials verified before) never wait here at all.
final class VerificationGate: Sendable {
  let running: Int
  let waiting: Int
  private let slots: DispatchSemaphore
  /// Running plus waiting.
  private let admitted = Locked(0)

  init(running: Int = max(1, ProcessInfo.processInfo.activeProcessorCount), waiting: Int = 64) {
    self.running = max(1, running)
    self.waiting = max(0, waiting)
    slots = DispatchSemaphore(value: max(1, running))
  }

  /// Runs `work` once a slot is free; nil, without running it, when too many wait already.
  func run<T>(_ work: () -> T) -> T? {
    let limit = running + waiting
    let entered = admitted.withLock { count -> Bool in
      guard count < limit else { return false }
      count += 1
      return true
    }
    guard entered else { return nil }
    defer { admitted.withLock { $0 -= 1 } }
    slots.wait()
    defer { slots.signal() }
    return work()
  }
}

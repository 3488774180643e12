import Foundation
import Locking

/// A clock that moves only when told to: the deterministic time source of
/// tests and the testing profile.
public final class ManualClock: WallClock {
  private let current: Locked<Date>

  public init(_ start: Date = Date(timeIntervalSince1970: 1_780_000_000)) {
    current = Locked(start)
  }

  public func now() -> Date { current.withLock { $0 } }

  public func advance(by seconds: TimeInterval) {
    precondition(seconds >= 0, "a manual clock never goes backwards")
    current.withLock { $0 = $0.addingTimeInterval(seconds) }
  }

  public func set(_ date: Date) {
    current.withLock { $0 = max($0, date) }
  }
}

import Locking

/// Deterministic ids `prefix0001`, `prefix0002`, … for tests and the
/// simulator; zero-padded so text order is creation order.
public final class SequentialIDGenerator: IDGenerator {
  private let prefix: String
  private let counter = Locked(0)

  public init(prefix: String = "id") { self.prefix = prefix }

  public func next() -> String {
    let value = counter.withLock { count -> Int in
      count += 1
      return count
    }
    let digits = String(value)
    return prefix + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

import Synchronization

/// Deterministic ids `prefix1`, `prefix2`, … for tests and the simulator.
public final class SequentialIDGenerator: IDGenerator {
  private let prefix: String
  private let counter = Mutex(0)

  public init(prefix: String = "id") { self.prefix = prefix }

  public func next() -> String {
    let value = counter.withLock { count -> Int in
      count += 1
      return count
    }
    return "\(prefix)\(value)"
  }
}

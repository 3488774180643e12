import Dispatch

/// One value handed from whichever thread produces it to the one thread
/// waiting for it: a synchronous call over an API that answers later.
public final class OneShot<Value: Sendable>: Sendable {
  private let ready = DispatchSemaphore(value: 0)
  private let value = Locked<Value?>(nil)

  public init() {}

  /// Keeps the first value; later ones are dropped.
  public func put(_ produced: Value) {
    let first = value.withLock { current -> Bool in
      guard current == nil else { return false }
      current = produced
      return true
    }
    if first { ready.signal() }
  }

  /// Waits for the value.
  public func take() -> Value {
    ready.wait()
    return value.withLock { $0! }
  }
}

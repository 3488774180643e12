#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value that one thread at a time may read or change, through
/// `withLock`. It does what the standard library's `Mutex` does, over a
/// pthread mutex: on Linux ThreadSanitizer cannot see how `Mutex` orders
/// the threads it admits (its futex is in an uninstrumented library), so it
/// reports every access `Mutex` guards as a race and a TSan run of the
/// daemon says nothing true. A pthread mutex it sees.
public final class Locked<Value>: @unchecked Sendable {
  // Allocated once and never moved: a pthread mutex must keep its address.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  public init(_ value: Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    self.value = value
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with the value while no other thread holds the lock.
  /// Not reentrant: calling `withLock` on the same value from inside
  /// `body` deadlocks, as with `Mutex`.
  public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}

import Foundation

/// Runs work that waits (a password check, a durable write) off the HTTP
/// server's polling threads, which serve many connections each and must
/// never wait: at most `threads` pieces at once and at most `queued` more
/// waiting; beyond that `submit` refuses and the caller answers 503.
/// Threads start when work comes and end after `linger` seconds idle, so an
/// idle daemon (or a test's) keeps none.
final class WorkerPool: @unchecked Sendable {
  let threads: Int
  let queued: Int
  let linger: TimeInterval
  private let name: String
  // Guarded by `condition`.
  private let condition = NSCondition()
  private var queue: [@Sendable () -> @Sendable () -> Void] = []
  /// Threads alive, and those of them doing work now.
  private var running = 0
  private var busy = 0

  init(name: String, threads: Int, queued: Int, linger: TimeInterval = 1) {
    self.name = name
    self.threads = max(1, threads)
    self.queued = max(0, queued)
    self.linger = linger
  }

  /// Queues `work`; false, without running it, when the pool is full.
  /// `work` returns what tells its caller the result (an answer): that runs
  /// after the pool counted the work as done, so a caller who sends the
  /// next piece as soon as it hears back always finds the room it left.
  func submit(_ work: @escaping @Sendable () -> @Sendable () -> Void) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard queue.count + busy < threads + queued else { return false }
    queue.append(work)
    if running - busy < queue.count, running < threads {
      running += 1
      let thread = Thread { [self] in serve() }
      thread.name = name
      thread.start()
    } else {
      condition.signal()
    }
    return true
  }

  private func serve() {
    condition.lock()
    while true {
      guard !queue.isEmpty else {
        if !condition.wait(until: Date().addingTimeInterval(linger)), queue.isEmpty { break }
        continue
      }
      let work = queue.removeFirst()
      busy += 1
      condition.unlock()
      let tell = work()
      condition.lock()
      busy -= 1
      condition.unlock()
      tell()
      condition.lock()
    }
    running -= 1
    condition.unlock()
  }
}

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
  private var queue: [@Sendable () -> Void] = []
  private var running = 0
  private var idle = 0

  init(name: String, threads: Int, queued: Int, linger: TimeInterval = 1) {
    self.name = name
    self.threads = max(1, threads)
    self.queued = max(0, queued)
    self.linger = linger
  }

  /// Queues `work`; false, without running it, when the pool is full.
  func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard queue.count < queued + max(0, threads - running) + idle else { return false }
    queue.append(work)
    if idle > 0 {
      condition.signal()
    } else if running < threads {
      running += 1
      let thread = Thread { [self] in serve() }
      thread.name = name
      thread.start()
    }
    return true
  }

  private func serve() {
    condition.lock()
    while true {
      if queue.isEmpty {
        idle += 1
        let woken = condition.wait(until: Date().addingTimeInterval(linger))
        idle -= 1
        if !woken, queue.isEmpty { break }
        continue
      }
      let work = queue.removeFirst()
      condition.unlock()
      work()
      condition.lock()
    }
    running -= 1
    condition.unlock()
  }
}

import Dispatch
import Foundation
import Locking

/// Runs work that waits (a password check, a durable write) off the HTTP
/// server's polling threads, which serve many connections each and must
/// never wait: at most `threads` pieces at once and at most `queued` more
/// waiting; beyond that `submit` refuses and the caller answers 503.
/// Threads start when work comes and end after `linger` seconds idle, so an
/// idle daemon (or a test's) keeps none.
final class WorkerPool: Sendable {
  let threads: Int
  let queued: Int
  let linger: Double
  private let name: String
  private struct State {
    var queue: [@Sendable () -> @Sendable () -> Void] = []
    /// Threads alive, and those of them doing work now.
    var running = 0
    var busy = 0
  }
  private let state = Locked(State())
  /// Signalled once per piece queued for a thread already alive.
  private let wake = DispatchSemaphore(value: 0)

  init(name: String, threads: Int, queued: Int, linger: Double = 1) {
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
    let (accepted, spawn) = state.withLock { state -> (Bool, Bool) in
      guard state.queue.count + state.busy < threads + queued else { return (false, false) }
      state.queue.append(work)
      guard state.running - state.busy < state.queue.count, state.running < threads else { return (true, false) }
      state.running += 1
      return (true, true)
    }
    guard accepted else { return false }
    if spawn {
      let thread = Thread { [self] in serve() }
      thread.name = name
      thread.start()
    } else {
      wake.signal()
    }
    return true
  }

  private func serve() {
    while true {
      let work = state.withLock { state -> (@Sendable () -> @Sendable () -> Void)? in
        guard !state.queue.isEmpty else { return nil }
        state.busy += 1
        return state.queue.removeFirst()
      }
      if let work {
        let tell = work()
        state.withLock { $0.busy -= 1 }
        tell()
        continue
      }
      // Nothing queued: wait for a piece, and end after `linger` without one
      // (unless one came in the meantime, whose signal another thread may have taken).
      if wake.wait(timeout: .now() + linger) == .timedOut {
        let ending = state.withLock { state -> Bool in
          guard state.queue.isEmpty else { return false }
          state.running -= 1
          return true
        }
        if ending { return }
      }
    }
  }
}

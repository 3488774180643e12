import Dispatch
import Foundation
import Locking
import Testing

@testable import Daemon

/// The pools that keep waiting work off the HTTP server's threads: bounded,
/// refusing beyond their queue, and never refusing the piece a caller sends
/// as soon as it heard back from the last.
@Suite struct WorkerPoolTests {
  @Test func atMostThreadsRunAndAtMostQueuedWait() {
    let pool = WorkerPool(name: "test", threads: 2, queued: 1)
    let release = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    let atOnce = Locked((now: 0, most: 0))
    let finished = DispatchGroup()
    func piece() -> Bool {
      finished.enter()
      let accepted = pool.submit {
        atOnce.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
        started.signal()
        release.wait()
        atOnce.withLock { $0.now -= 1 }
        return { finished.leave() }
      }
      if !accepted { finished.leave() }
      return accepted
    }
    #expect(piece() && piece(), "two run")
    started.wait()
    started.wait()
    #expect(piece(), "one waits")
    #expect(!piece(), "a fourth is refused")
    for _ in 0..<3 { release.signal() }
    #expect(finished.wait(timeout: .now() + 10) == .success)
    #expect(atOnce.withLock { $0.most } == 2)
  }

  @Test func theNextPieceSentOnHearingBackIsNeverRefused() {
    let pool = WorkerPool(name: "test", threads: 1, queued: 0)
    let done = DispatchSemaphore(value: 0)
    let refused = Locked(0)
    @Sendable func chain(_ left: Int) {
      let accepted = pool.submit {
        {
          if left == 0 {
            done.signal()
          } else {
            chain(left - 1)
          }
        }
      }
      if !accepted {
        refused.withLock { $0 += 1 }
        done.signal()
      }
    }
    chain(200)
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(refused.withLock { $0 } == 0, "a piece sent from the last one's answer found the pool full")
  }
}

import Dispatch
import Locking

/// One response handed from whichever thread answers to the one waiting for it.
public final class AnswerBox: Sendable {
  private let ready = DispatchSemaphore(value: 0)
  private let response = Locked<HTTPResponse?>(nil)

  public init() {}

  /// Keeps the first answer; later ones are dropped.
  public func put(_ answer: HTTPResponse) {
    let first = response.withLock { current -> Bool in
      guard current == nil else { return false }
      current = answer
      return true
    }
    if first { ready.signal() }
  }

  /// Waits for the answer.
  public func take() -> HTTPResponse {
    ready.wait()
    return response.withLock { $0! }
  }
}

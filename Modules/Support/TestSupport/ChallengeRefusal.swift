import Foundation
import Locking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Swift's URLSession on Linux never completes a request answered 401 with
/// `WWW-Authenticate` unless a delegate settles the challenge: refuse it,
/// and remember that the server asked (that is the 401).
final class ChallengeRefusal: NSObject, URLSessionTaskDelegate, Sendable {
  private let seen = Locked(false)

  var challenged: Bool { seen.withLock { $0 } }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    seen.withLock { $0 = true }
    completionHandler(.rejectProtectionSpace, nil)
  }
}

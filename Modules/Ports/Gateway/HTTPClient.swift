import Foundation
import Locking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends one HTTP request and waits for the answer: the client side of the
/// door (webhooks and ntfy, `remote:` stores, tests). URLSession underneath;
/// call it from a thread that may block, never from ingest.
public struct HTTPClient: Sendable {
  public let timeout: TimeInterval

  public init(timeout: TimeInterval = 30) {
    self.timeout = timeout
  }

  /// The answer, whatever its status; throws only when there is none
  /// (refused, timed out). A 401 with `WWW-Authenticate` comes back as a
  /// bare 401: URLSession keeps its body to itself.
  public func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) throws -> HTTPResponse {
    var request = URLRequest(url: url, timeoutInterval: timeout)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let answer = OneShot<(response: HTTPResponse?, error: String?)>()
    let challenges = ChallengeRefusal()
    let session = URLSession(configuration: .ephemeral, delegate: challenges, delegateQueue: nil)
    session.dataTask(with: request) { data, response, error in
      let answered = (response as? HTTPURLResponse).map { http in
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)".lowercased()] = "\(value)" }
        return HTTPResponse(status: http.statusCode, headers: fields, body: data ?? Data())
      }
      answer.put((answered, error?.localizedDescription))
    }.resume()
    let got = answer.take()
    session.finishTasksAndInvalidate()
    if let response = got.response { return response }
    if challenges.challenged { return HTTPResponse(status: 401) }
    throw HTTPClientError(url: url, reason: got.error ?? "no answer")
  }
}

/// No answer at all from a server.
public struct HTTPClientError: Error, Equatable, Sendable, CustomStringConvertible {
  public let url: URL
  public let reason: String
  public var description: String { "\(url.absoluteString): \(reason)" }
}

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

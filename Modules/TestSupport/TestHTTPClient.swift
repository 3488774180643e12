import Foundation
import Gateway

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A blocking HTTP client for tests (URLSession underneath), as a phone or
/// a browser would call the daemon.
public struct TestHTTPClient: Sendable {
  public struct Response: Sendable {
    public let status: Int
    /// Lower-cased names.
    public let headers: [String: String]
    public let body: Data

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object or array.
    public func json() throws -> Any { try JSONSerialization.jsonObject(with: body) }
  }

  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  public let timeout: TimeInterval

  public init(timeout: TimeInterval = 15) {
    self.timeout = timeout
  }

  /// Sends a request to a server on loopback `port`, for `GatewayConformance`; nil when nothing answers.
  public func send(_ request: HTTPRequest, port: Int) -> HTTPResponse? {
    var components = URLComponents()
    components.scheme = "http"
    components.host = "127.0.0.1"
    components.port = port
    components.path = request.path
    if !request.query.isEmpty { components.queryItems = request.query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) } }
    guard let url = components.url?.absoluteString,
      let response = try? send(request.method, url, headers: request.headers, body: request.body.isEmpty ? nil : request.body)
    else { return nil }
    return HTTPResponse(status: response.status, headers: response.headers, body: response.body)
  }

  public func send(_ method: String, _ url: String, headers: [String: String] = [:], body: Data? = nil, user: String? = nil, password: String? = nil) throws -> Response {
    guard let target = URL(string: url) else { throw Failure(description: "bad URL \(url)") }
    var request = URLRequest(url: target, timeoutInterval: timeout)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let user, let password {
      request.setValue("Basic " + Data("\(user):\(password)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
    }
    final class Box: @unchecked Sendable {
      var response: Response?
      var error: (any Error)?
    }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    let challenges = ChallengeRefusal()
    let session = URLSession(configuration: .ephemeral, delegate: challenges, delegateQueue: nil)
    session.dataTask(with: request) { data, response, error in
      if let http = response as? HTTPURLResponse {
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)".lowercased()] = "\(value)" }
        box.response = Response(status: http.statusCode, headers: fields, body: data ?? Data())
      }
      box.error = error
      done.signal()
    }.resume()
    done.wait()
    session.finishTasksAndInvalidate()
    if let response = box.response { return response }
    // URLSession hides a 401 with WWW-Authenticate behind its challenge.
    if challenges.challenged { return Response(status: 401, headers: [:], body: Data()) }
    throw Failure(description: "\(method) \(url): \(box.error.map { "\($0)" } ?? "no response")")
  }
}

/// Swift's URLSession on Linux never completes a request answered 401 with
/// `WWW-Authenticate` unless a delegate settles the challenge.
final class ChallengeRefusal: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private var seen = false

  var challenged: Bool { lock.withLock { seen } }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    lock.withLock { seen = true }
    completionHandler(.rejectProtectionSpace, nil)
  }
}

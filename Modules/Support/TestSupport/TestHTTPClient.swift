import Foundation
import Gateway
import Locking

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
    guard let url = request.loopbackURL(port: port)?.absoluteString,
      let response = try? send(request.method, url, headers: request.headers, body: request.body.isEmpty ? nil : request.body)
    else { return nil }
    return HTTPResponse(status: response.status, headers: response.headers, body: response.body)
  }

  public func send(_ method: String, _ url: String, headers: [String: String] = [:], body: Data? = nil, user: String? = nil, password: String? = nil) throws -> Response {
    guard let target = URL(string: url) else { throw Failure(description: "bad URL \(url)") }
    var all = headers
    if let user, let password { all["Authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }
    do {
      return try exchange(method, target, headers: all, body: body)
    } catch {
      throw Failure(description: "\(method) \(url): \(error)")
    }
  }

  /// URLSession, as Foundation's users call a server (the product's own
  /// client is CurlHTTPClient, tested against the same servers).
  private func exchange(_ method: String, _ url: URL, headers: [String: String], body: Data?) throws -> Response {
    var request = URLRequest(url: url, timeoutInterval: timeout)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let answer = OneShot<(response: Response?, error: String?)>()
    let challenges = ChallengeRefusal()
    let session = URLSession(configuration: .ephemeral, delegate: challenges, delegateQueue: nil)
    session.dataTask(with: request) { data, response, error in
      let answered = (response as? HTTPURLResponse).map { http in
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)".lowercased()] = "\(value)" }
        return Response(status: http.statusCode, headers: fields, body: data ?? Data())
      }
      answer.put((answered, error?.localizedDescription))
    }.resume()
    let got = answer.take()
    session.finishTasksAndInvalidate()
    if let response = got.response { return response }
    // URLSession keeps a 401's body to itself: a bare 401.
    if challenges.challenged { return Response(status: 401, headers: [:], body: Data()) }
    throw Failure(description: got.error ?? "no answer")
  }
}

extension HTTPRequest {
  /// Where this request goes on a server at loopback `port`: its path and query.
  public func loopbackURL(port: Int) -> URL? {
    var components = URLComponents()
    components.scheme = "http"
    components.host = "127.0.0.1"
    components.port = port
    components.path = path
    if !query.isEmpty { components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) } }
    return components.url
  }
}

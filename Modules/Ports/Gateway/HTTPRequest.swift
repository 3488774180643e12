import Foundation

/// One HTTP request as the server read it: the body complete and within
/// the configured size limit.
public struct HTTPRequest: Sendable {
  public let method: String
  /// The path without the query string, percent-decoded by the server.
  public let path: String
  public let query: [String: String]
  /// Header names lower-cased.
  public let headers: [String: String]
  public let body: Data
  /// The peer's IP address, for slowing repeated failed logins.
  public let clientAddress: String

  public init(
    method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: Data = Data(),
    clientAddress: String = "127.0.0.1"
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    self.body = body
    self.clientAddress = clientAddress
  }

  public func header(_ name: String) -> String? { headers[name.lowercased()] }

  /// HTTP Basic credentials, when the Authorization header carries them.
  public var basicCredentials: (user: String, password: String)? {
    guard let value = header("authorization") else { return nil }
    let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "basic",
      let data = Data(base64Encoded: String(parts[1].filter { $0 != " " && $0 != "\t" })),
      let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
    else { return nil }
    return (String(text[..<colon]), String(text[text.index(after: colon)...]))
  }
}

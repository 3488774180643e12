import Foundation

/// What a handler answers. Errors are JSON objects with a message, so
/// scripts and apps read them the same way as results.
public struct HTTPResponse: Sendable, Equatable {
  public var status: Int
  public var headers: [String: String]
  public var body: Data

  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A JSON body from already encoded bytes.
  public static func json(_ status: Int, _ body: Data) -> HTTPResponse {
    HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
  }

  /// A JSON body from any encodable value (sorted keys, ISO-8601 dates).
  public static func json<Value: Encodable>(_ status: Int, encoding value: Value) -> HTTPResponse {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    do {
      return json(status, try encoder.encode(value))
    } catch {
      return failure(500, "could not encode the answer: \(error)")
    }
  }

  /// `{"error": MESSAGE, "status": STATUS}`.
  public static func failure(_ status: Int, _ message: String) -> HTTPResponse {
    json(status, encoding: ErrorBody(error: message, status: status))
  }

  struct ErrorBody: Encodable {
    let error: String
    let status: Int
  }
}

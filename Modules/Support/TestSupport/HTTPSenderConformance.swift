import Foundation
import Gateway

/// The promises of `HTTPSending`, checked against a server `serve` starts
/// for a handler (its base address, and how to stop it).
public enum HTTPSenderConformance {
  public static func verify(sender: any HTTPSending, serve: (RecordingHTTPHandler) throws -> (base: URL, stop: @Sendable () -> Void)) throws {
    let handler = RecordingHTTPHandler { request in
      switch request.path {
      case "/moved": return HTTPResponse(status: 307, headers: ["Location": "/elsewhere"])
      case "/private": return HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Basic realm=\"x\""], body: Data("who are you".utf8))
      case "/huge": return HTTPResponse(status: 200, body: Data(count: httpAnswerLimit + 1))
      default:
        return HTTPResponse(status: 201, headers: ["X-Seen": "\(request.body.count)"], body: Data("made \(request.method)".utf8))
      }
    }
    let (base, stop) = try serve(handler)
    var stopped = false
    defer { if !stopped { stop() } }

    // Under 64 KiB: what the project's own servers take by default.
    let body = Data((0..<60_000).map { UInt8($0 % 251) })
    let made = try sender.send(
      "PUT", URL(string: "things?q=a%20b", relativeTo: base)!.absoluteURL, headers: ["Content-Type": "application/octet-stream", "X-Person": "alice"],
      body: body, timeout: 10)
    try expect(made.status == 201, "status", "a 201 came back as \(made.status)")
    try expect(made.headers["x-seen"] == "60000", "answer headers", "headers come back with lower-cased names: \(made.headers)")
    try expect(String(decoding: made.body, as: UTF8.self) == "made PUT", "answer body", "got \(String(decoding: made.body, as: UTF8.self))")
    let seen = handler.requests.last
    try expect(seen?.method == "PUT" && seen?.path == "/things", "method and path", "the server saw \(seen?.method ?? "nothing") \(seen?.path ?? "")")
    try expect(seen?.query["q"] == "a b", "query", "the server saw \(seen?.query ?? [:])")
    try expect(seen?.header("X-Person") == "alice", "headers", "the server saw \(seen?.headers ?? [:])")
    try expect(seen?.body == body, "body", "the server saw \(seen?.body.count ?? 0) of \(body.count) bytes, or others")

    _ = try sender.send("POST", base, headers: [:], body: Data(), timeout: 10)
    try expect(handler.requests.last?.method == "POST" && handler.requests.last?.body.isEmpty == true, "an empty body", "a POST of nothing arrived as \(handler.requests.last?.method ?? "nothing")")

    let refused = try sender.send("GET", URL(string: "private", relativeTo: base)!.absoluteURL, headers: [:], body: nil, timeout: 10)
    try expect(refused.status == 401 && String(decoding: refused.body, as: UTF8.self) == "who are you", "a refusal", "a 401 came back as \(refused.status) \(String(decoding: refused.body, as: UTF8.self))")

    let before = handler.requests.count
    let moved = try sender.send("POST", URL(string: "moved", relativeTo: base)!.absoluteURL, headers: [:], body: Data("lat=60.17".utf8), timeout: 10)
    try expect(moved.status == 307 && handler.requests.count == before + 1, "redirects", "a 307 came back as \(moved.status) after \(handler.requests.count - before) requests")

    let huge = URL(string: "huge", relativeTo: base)!.absoluteURL
    do {
      let answer = try sender.send("GET", huge, headers: [:], body: nil, timeout: 10)
      throw ConformanceViolation(check: "answer limit", detail: "an answer of \(answer.body.count) bytes was kept")
    } catch let error as HTTPClientError {
      try expect(error.url == huge, "answer limit", "\(error)")
    }

    let before2 = handler.requests.count
    do {
      _ = try sender.send("GET", base, headers: ["X-Note": "a\r\nX-Injected: yes"], body: nil, timeout: 5)
      throw ConformanceViolation(check: "header lines", detail: "a header holding a line break was sent")
    } catch let error as HTTPClientError {
      try expect(handler.requests.count == before2, "header lines", "\(error), yet the server saw it")
    }

    let outside = URL(fileURLWithPath: "/tmp/whilehere-http-sender-\(UUID().uuidString)")
    do {
      _ = try sender.send("POST", outside, headers: [:], body: Data("x".utf8), timeout: 5)
      throw ConformanceViolation(check: "only http", detail: "a file address was sent to")
    } catch let error as HTTPClientError {
      try expect(error.url == outside && !FileManager.default.fileExists(atPath: outside.path), "only http", "\(error)")
    }

    stop()
    stopped = true
    let gone = URL(string: "x", relativeTo: base)!.absoluteURL
    do {
      _ = try sender.send("GET", gone, headers: [:], body: nil, timeout: 5)
      throw ConformanceViolation(check: "no answer", detail: "a stopped server answered")
    } catch let error as HTTPClientError {
      try expect(error.description.hasPrefix(gone.absoluteString + ": ") && !error.reason.isEmpty, "no answer", "the error names the address: \(error)")
    }
  }
}

import Foundation
import Gateway
import Locking

/// The shared suites for the daemon's door: every `TokenSigner`,
/// `PasswordHasher` and `HTTPServing` passes these.
public enum GatewayConformance {
  /// Round trip, and refusal of anything changed or made with another key.
  public static func verify(signer: any TokenSigner, other: any TokenSigner) throws {
    let payload = Data(#"{"p":"alice","t":"t1","a":"done"}"#.utf8)
    let token = signer.sign(payload)
    try expect(signer.open(token) == payload, "round trip", "open(sign(p)) != p")
    try expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }, "url-safe", "token '\(token)' is not URL-safe")
    try expect(other.open(token) == nil, "key", "a token opened under another key")
    var bytes = Array(token)
    for index in [0, bytes.count / 2, bytes.count - 1] {
      let original = bytes[index]
      bytes[index] = original == "A" ? "B" : "A"
      try expect(signer.open(String(bytes)) == nil, "tamper", "a token changed at \(index) still opened")
      bytes[index] = original
    }
    for junk in ["", "x", String(repeating: "A", count: 10_000), "../../etc/passwd", "%00", "🥛"] {
      try expect(signer.open(junk) == nil, "junk", "'\(junk.prefix(20))' opened")
    }
  }

  /// Hashes never hold the password; only the right password verifies; junk hashes are false.
  public static func verify(hasher: any PasswordHasher) throws {
    let hash = try hasher.hash("correct horse")
    try expect(!hash.contains("correct horse"), "secret", "the hash contains the password")
    try expect(hasher.verify("correct horse", against: hash), "verify", "the right password failed")
    try expect(!hasher.verify("correct horsf", against: hash), "verify", "a wrong password passed")
    try expect(try hasher.hash("correct horse") != hash, "salt", "two hashes of one password are equal (no salt)")
    for junk in ["", "$argon2id$", "$argon2id$v=19$m=1,t=1,p=1$$", String(repeating: "$", count: 5000), hash + "x"] {
      try expect(!hasher.verify("correct horse", against: junk), "junk", "verified against '\(junk.prefix(30))'")
    }
  }

  /// How the suite reaches a server: over the network, or in-process.
  public typealias Send = (any HTTPServing, Int, HTTPRequest) -> HTTPResponse?

  /// A server on a free port answers through the handler, passes query and
  /// headers, refuses an oversize body with 413 before the handler sees it,
  /// and stops answering after `stop`.
  public static func verify(server make: (HTTPServerOptions) -> any HTTPServing, send: Send) throws {
    let recorder = RecordingHTTPHandler { request in
      .json(200, Data(#"{"path":"\#(request.path)","bytes":\#(request.body.count)}"#.utf8))
    }
    let server = make(HTTPServerOptions(address: "127.0.0.1", port: 0, maxBodyBytes: 1024, timeoutSeconds: 5))
    let port = try server.start(recorder)
    defer { server.stop() }
    try expect(port > 0, "port", "port 0 must bind a free port, got \(port)")
    let small = send(
      server, port,
      HTTPRequest(method: "POST", path: "/echo", query: ["u": "alice", "d": "phone"], headers: ["X-Limit-U": "alice"], body: Data(repeating: 65, count: 1000)))
    try expect(small?.status == 200, "answer", "status \(small?.status ?? -1)")
    try expect(small?.headers.first { $0.key.lowercased() == "content-type" }?.value == "application/json", "headers", "answer headers \(small?.headers ?? [:])")
    let seen = recorder.requests.last
    try expect(seen?.path == "/echo", "path", "path \(seen?.path ?? "-")")
    try expect(seen?.query["u"] == "alice" && seen?.query["d"] == "phone", "query", "query \(String(describing: seen?.query))")
    try expect(seen?.header("x-limit-u") == "alice", "headers", "request headers \(String(describing: seen?.headers))")
    try expect(seen?.body.count == 1000, "body", "body of \(seen?.body.count ?? -1) bytes")
    let before = recorder.requests.count
    let large = send(server, port, HTTPRequest(method: "POST", path: "/echo", body: Data(repeating: 65, count: 5000)))
    try expect(large?.status == 413, "limit", "an oversize body got \(large?.status ?? -1)")
    try expect(recorder.requests.count == before, "limit", "the handler saw an oversize body")
    server.stop()
    try expect(send(server, port, HTTPRequest(method: "GET", path: "/echo")) == nil, "stop", "the server still answers after stop")
    try answersLater(make, send: send)
  }

  /// A handler that answers after `handle(_:answer:)` returned, from
  /// another thread, is heard by the client.
  static func answersLater(_ make: (HTTPServerOptions) -> any HTTPServing, send: Send) throws {
    let later = LaterHandler()
    let server = make(HTTPServerOptions(address: "127.0.0.1", port: 0, maxBodyBytes: 1024, timeoutSeconds: 5))
    let port = try server.start(later)
    defer { server.stop() }
    // The client waits here; another thread answers once the request arrived.
    let released = Locked(false)
    Thread {
      guard later.arrived.wait(timeout: .now() + 10) == .success else { return }
      released.withLock { $0 = true }
      later.release(HTTPResponse(status: 202, body: Data("done".utf8)))
    }.start()
    let got = send(server, port, HTTPRequest(method: "GET", path: "/later"))
    try expect(released.withLock { $0 }, "answer later", "the client had an answer before the handler gave one")
    try expect(got?.status == 202, "answer later", "the client got \(String(describing: got?.status))")
  }
}

/// Holds each request's answer until `release`, then answers from another thread.
public final class LaterHandler: HTTPHandler, Sendable {
  /// Signalled as each request arrives.
  public let arrived = DispatchSemaphore(value: 0)
  private let waiting = Locked<[@Sendable (HTTPResponse) -> Void]>([])

  public init() {}

  public func handle(_ request: HTTPRequest) -> HTTPResponse { answer(request) }

  public func handle(_ request: HTTPRequest, answer: @escaping @Sendable (HTTPResponse) -> Void) {
    waiting.withLock { $0.append(answer) }
    arrived.signal()
  }

  /// Answers every request waiting now, each from a thread of its own.
  public func release(_ response: HTTPResponse) {
    for answer in waiting.withLock({ held in defer { held = [] }; return held }) { Thread { answer(response) }.start() }
  }
}

extension GatewayConformance {
  /// Two connections to one broker: filters with `+` and `#` select what
  /// arrives, in order, and nothing arrives after `disconnect`. `settle`
  /// waits until its condition holds (a real broker needs real time).
  public static func verify(broker makeClient: () -> any MessageBroker, settle: (() -> Bool) -> Void) throws {
    final class Inbox: Sendable {
      let messages = Locked<[String]>([])
      func add(_ text: String) { messages.withLock { $0.append(text) } }
      var all: [String] { messages.withLock { $0 } }
    }
    let inbox = Inbox()
    let echoes = Inbox()
    let listener = makeClient()
    try listener.connect(subscriptions: ["owntracks/+/+", "owntracks/+/+/event"]) { topic, payload in
      inbox.add(topic + " " + String(decoding: payload, as: UTF8.self))
    }
    let phone = makeClient()
    try phone.connect(subscriptions: ["owntracks/alice/phone/cmd"]) { _, payload in echoes.add(String(decoding: payload, as: UTF8.self)) }
    try phone.publish(topic: "owntracks/alice/phone", payload: Data("one".utf8))
    try phone.publish(topic: "owntracks/alice/phone/event", payload: Data("two".utf8))
    try phone.publish(topic: "owntracks/alice/phone/cmd", payload: Data("marker 1".utf8))
    try phone.publish(topic: "owntracks/alice/phone", payload: Data("three".utf8))
    settle { inbox.all.count >= 3 }
    try expect(
      inbox.all == ["owntracks/alice/phone one", "owntracks/alice/phone/event two", "owntracks/alice/phone three"], "filters",
      "received \(inbox.all)")
    listener.disconnect()
    listener.disconnect()
    try phone.publish(topic: "owntracks/alice/phone", payload: Data("four".utf8))
    // The phone's own marker comes back after the broker has routed "four".
    try phone.publish(topic: "owntracks/alice/phone/cmd", payload: Data("marker 2".utf8))
    settle { echoes.all.contains("marker 2") }
    try expect(echoes.all == ["marker 1", "marker 2"], "order", "the phone got \(echoes.all)")
    try expect(inbox.all.count == 3, "disconnect", "a message arrived after disconnect: \(inbox.all)")
    phone.disconnect()
    try expect(TopicFilter.matches("owntracks/#", "owntracks/a/b/c") && !TopicFilter.matches("owntracks/+", "owntracks/a/b"), "filters", "wildcards")
  }
}

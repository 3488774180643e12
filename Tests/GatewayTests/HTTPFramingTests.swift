import Foundation
import Gateway
import MicroHTTP
import TestSupport
import Testing

/// Framing that a proxy and this server could read differently is refused
/// before any handler runs; an HTTP/1.0 body without a length is 411, not a
/// 200 with the body silently dropped.
@Suite struct HTTPFramingTests {
  func server() throws -> (MicroHTTPServer, Int, RecordingHTTPHandler) {
    let handler = RecordingHTTPHandler { _ in HTTPResponse(status: 200) }
    let server = MicroHTTPServer(options: HTTPServerOptions(port: 0))
    return (server, try server.start(handler), handler)
  }

  @Test(arguments: [
    ("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nContent-Length: 9\r\n\r\nabcd", 400),
    ("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\ncontent-length: 4\r\n\r\nabcd", 400),
    ("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n4\r\nabcd\r\n0\r\n\r\n", 400),
    ("POST /x HTTP/1.0\r\nHost: a\r\n\r\n{\"_type\":\"location\"}", 411),
  ])
  func ambiguousFramingIsRefusedBeforeTheHandler(request: String, status: Int) throws {
    let (server, port, handler) = try server()
    defer { server.stop() }
    let answer = RawHTTPClient.exchange(port: port, request)
    #expect(RawHTTPClient.status(answer) == status, "\(answer)")
    #expect(handler.requests.isEmpty, "the handler never saw it")
  }

  @Test func ordinaryFramingStillWorks() throws {
    let (server, port, handler) = try server()
    defer { server.stop() }
    #expect(RawHTTPClient.status(RawHTTPClient.exchange(port: port, "POST /x HTTP/1.0\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcd")) == 200)
    #expect(RawHTTPClient.status(RawHTTPClient.exchange(port: port, "GET /health HTTP/1.0\r\nHost: a\r\n\r\n")) == 200)
    #expect(RawHTTPClient.status(RawHTTPClient.exchange(port: port, "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n")) == 200)
    #expect(handler.requests.map { String(decoding: $0.body, as: UTF8.self) } == ["abcd", "", "abcd"])
  }

  /// A client that sends a large body straight away (no `Expect`) reads the
  /// 413 instead of a reset connection.
  @Test(arguments: [2 * 1024 * 1024, 10 * 1024 * 1024])
  func anOversizeBodySentAtOnceStillGetsIts413(size: Int) throws {
    let handler = RecordingHTTPHandler { _ in HTTPResponse(status: 200) }
    let server = MicroHTTPServer(options: HTTPServerOptions(port: 0, maxBodyBytes: 64 * 1024))
    let port = try server.start(handler)
    defer { server.stop() }
    let body = String(repeating: "x", count: size)
    let (answer, sentAll) = RawHTTPClient.exchangeReporting(port: port, "POST /owntracks HTTP/1.1\r\nHost: a\r\nContent-Length: \(size)\r\n\r\n" + body, timeout: 20)
    #expect(sentAll, "the server closed while the body was being sent: a strict client sees a broken pipe, not the 413")
    #expect(RawHTTPClient.status(answer) == 413, "\(answer.prefix(200))")
    #expect(handler.requests.isEmpty)
  }

  @Test func theRawClientKnowsAWholeAnswer() {
    #expect(RawHTTPClient.complete(Array("HTTP/1.1 413 Too Large\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok".utf8)))
    #expect(!RawHTTPClient.complete(Array("HTTP/1.1 413 Too Large\r\nContent-Length: 3\r\n\r\nok".utf8)))
  }

  @Test func aClientWaitingForContinueIsAnsweredAtOnce() throws {
    let handler = RecordingHTTPHandler { _ in HTTPResponse(status: 200) }
    let server = MicroHTTPServer(options: HTTPServerOptions(port: 0, maxBodyBytes: 1024))
    let port = try server.start(handler)
    defer { server.stop() }
    let answer = RawHTTPClient.exchange(port: port, "POST /owntracks HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n", halfClose: false)
    #expect(RawHTTPClient.status(answer) == 413, "\(answer)")
    #expect(server.requestsInFlight == 0, "a request refused on its headers is not waited for when stopping")
  }

  /// One client holding slow connections cannot lock everyone else out: its
  /// address gets at most `perAddressLimit` at once.
  @Test func oneAddressCannotTakeEveryConnection() throws {
    let handler = RecordingHTTPHandler { _ in HTTPResponse(status: 200) }
    let server = MicroHTTPServer(options: HTTPServerOptions(port: 0, perAddressLimit: 2))
    let port = try server.start(handler)
    defer { server.stop() }
    let slow = (0..<2).compactMap { _ in RawHTTPClient.hold(port: port, "GET /health HTTP/1.1\r\nHost: a\r\n") }
    #expect(slow.count == 2)
    // A real server notices the held connections on its own thread: poll briefly.
    var third = 200
    for _ in 0..<100 where third != 0 {
      third = RawHTTPClient.status(RawHTTPClient.exchange(port: port, "GET /health HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", timeout: 2))
      if third != 0 { usleep(10_000) }
    }
    #expect(third == 0, "a third connection from the same address is refused")
    slow.forEach(RawHTTPClient.close)
    // The server notices the closes, or its once-a-second sweep does.
    var after = 0
    let giveUp = Date().addingTimeInterval(5)
    while after != 200, Date() < giveUp {
      after = RawHTTPClient.status(RawHTTPClient.exchange(port: port, "GET /health HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", timeout: 2))
      if after != 200 { usleep(10_000) }
    }
    #expect(after == 200, "once they close, the address is served again")
  }
}

import Foundation
import Gateway
import Locking
import MicroHTTP
import TestSupport
import Testing

/// Slow clients cannot hold connections: headers are due 10 s after a
/// connection opens, a body at 1 KiB/s after them, while the handler's own
/// time is never counted. The deadlines run on an injected clock.
@Suite struct HTTPDeadlineTests {
  /// Time the test moves by hand (the Gateway layer knows no domain clock).
  final class HandClock: Sendable {
    private let current = Locked(Date(timeIntervalSince1970: 1_780_000_000))
    func now() -> Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
  }

  let clock = HandClock()

  func server(_ options: HTTPServerOptions = HTTPServerOptions(port: 0), respond: @escaping @Sendable (HTTPRequest) -> HTTPResponse = { _ in HTTPResponse(status: 200) }) throws -> (MicroHTTPServer, Int) {
    let clock = clock
    let server = MicroHTTPServer(options: options, clock: { clock.now() })
    return (server, try server.start(RecordingHTTPHandler(respond: respond)))
  }

  /// The server learns of a connection on its own thread: wait until it counts `count`.
  func waitFor(_ count: Int, on server: MicroHTTPServer) -> Bool {
    for _ in 0..<500 {
      if server.openConnections >= count { return true }
      usleep(2000)
    }
    return false
  }

  /// The server finishes a request (and restarts its connection's header
  /// time) just after the answer went out: wait for that.
  func waitUntilAnswered(_ server: MicroHTTPServer) -> Bool {
    for _ in 0..<500 {
      if server.requestsInFlight == 0 { return true }
      usleep(2000)
    }
    return false
  }

  static func health(_ port: Int) -> Int {
    RawHTTPClient.status(RawHTTPClient.exchange(port: port, "GET /health HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", timeout: 2))
  }

  @Test func headersTrickledPastTheirDeadlineAreCut() throws {
    let (server, port) = try server()
    defer { server.stop() }
    let slow = try #require(RawHTTPClient.hold(port: port, "GET /health HTTP/1.1\r\nHo"))
    defer { RawHTTPClient.close(slow) }
    #expect(waitFor(1, on: server))
    clock.advance(by: 9)
    #expect(server.enforceDeadlines() == 0, "9 s: still within the 10 s for headers")
    clock.advance(by: 1)
    #expect(server.enforceDeadlines() == 1)
    #expect(RawHTTPClient.closedByServer(slow), "the slow client's connection is closed")
    #expect(Self.health(port) == 200, "others are served")
  }

  /// Slow clients from many addresses (each under the per-address limit)
  /// fill every connection; at their deadline they are cut and a phone is
  /// served again.
  @Test func slowClientsFromManyAddressesAreCutAtTheirDeadline() throws {
    let (server, port) = try server(HTTPServerOptions(port: 0, connectionLimit: 40, perAddressLimit: 1))
    defer { server.stop() }
    let slow = (2..<42).compactMap { RawHTTPClient.hold(port: port, "POST /owntracks HTTP/1.1\r\n", from: "127.0.0.\($0)") }
    defer { slow.forEach(RawHTTPClient.close) }
    #expect(slow.count == 40)
    #expect(waitFor(40, on: server))
    #expect(Self.health(port) == 0, "every connection is taken")
    clock.advance(by: 10)
    #expect(server.enforceDeadlines() == 40)
    #expect(slow.allSatisfy { RawHTTPClient.closedByServer($0) })
    var status = 0
    for _ in 0..<200 where status != 200 {
      status = Self.health(port)
      if status != 200 { usleep(5000) }
    }
    #expect(status == 200)
  }

  @Test func aBodySlowerThanTheMinimumRateIsCut() throws {
    let (server, port) = try server()
    defer { server.stop() }
    // 10 240 bytes owed at 1024 B/s: due 10 s (headers' allowance) + 10 s after the headers.
    let slow = try #require(RawHTTPClient.hold(port: port, "POST /owntracks HTTP/1.1\r\nHost: a\r\nContent-Length: 10240\r\n\r\n{\"_type\""))
    defer { RawHTTPClient.close(slow) }
    // Its headers have reached the server once the request counts in flight.
    var inFlight = false
    for _ in 0..<500 where !inFlight {
      inFlight = server.requestsInFlight == 1
      if !inFlight { usleep(2000) }
    }
    #expect(inFlight)
    clock.advance(by: 19)
    #expect(server.enforceDeadlines() == 0, "19 s: within 10 s + 10 KiB at 1 KiB/s")
    clock.advance(by: 1.5)
    #expect(server.enforceDeadlines() == 1)
    #expect(RawHTTPClient.closedByServer(slow))
  }

  @Test func theHandlersOwnTimeIsNeverCounted() throws {
    let release = DispatchSemaphore(value: 0)
    let entered = DispatchSemaphore(value: 0)
    let (server, port) = try server { _ in
      entered.signal()
      release.wait()
      return HTTPResponse(status: 200)
    }
    defer { server.stop() }
    let answer = Locked<Int>(0)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      answer.withLock { $0 = Self.health(port) }
      done.signal()
    }
    #expect(entered.wait(timeout: .now() + 5) == .success)
    clock.advance(by: 3600)
    #expect(server.enforceDeadlines() == 0, "a handler waiting for a durable write is not a slow client")
    release.signal()
    #expect(done.wait(timeout: .now() + 5) == .success)
    #expect(answer.withLock { $0 } == 200)
  }

  @Test func aKeptAliveConnectionGetsFreshHeaderTimeAfterEachAnswer() throws {
    let (server, port) = try server()
    defer { server.stop() }
    let connection = try #require(RawHTTPClient.hold(port: port, "GET /health HTTP/1.1\r\nHost: a\r\n\r\n"))
    defer { RawHTTPClient.close(connection) }
    #expect(RawHTTPClient.readAnswer(connection).hasPrefix("HTTP/1.1 200"))
    #expect(waitUntilAnswered(server))
    clock.advance(by: 9)
    #expect(server.enforceDeadlines() == 0)
    #expect(RawHTTPClient.write(connection, "GET /health HTTP/1.1\r\nHost: a\r\n\r\n"))
    #expect(RawHTTPClient.readAnswer(connection).hasPrefix("HTTP/1.1 200"), "the second request on the connection is served")
    #expect(waitUntilAnswered(server))
    clock.advance(by: 9)
    #expect(server.enforceDeadlines() == 0, "its headers' time restarted with the last answer")
    clock.advance(by: 1)
    #expect(server.enforceDeadlines() == 1, "idle 10 s after its last answer")
  }
}

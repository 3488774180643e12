import Dispatch
import Foundation
import Gateway
import Locking
import MicroHTTP
import TestSupport
import Testing

/// libmicrohttpd's threads serve many connections each: a request whose
/// answer comes later is set aside, so it holds up no other connection on
/// the same thread, and a stop answers what is still waiting.
@Suite struct HTTPSuspendTests {
  /// Holds `/later` until released; answers anything else at once.
  final class Mixed: HTTPHandler, Sendable {
    let later = LaterHandler()
    func handle(_ request: HTTPRequest) -> HTTPResponse { HTTPResponse(status: 200, body: Data("now".utf8)) }
    func handle(_ request: HTTPRequest, answer: @escaping @Sendable (HTTPResponse) -> Void) {
      if request.path == "/later" { later.handle(request, answer: answer) } else { answer(handle(request)) }
    }
  }

  @Test func aRequestAnsweredLaterHoldsUpNoOtherOnTheSameThread() throws {
    let handler = Mixed()
    let server = MicroHTTPServer(options: HTTPServerOptions(port: 0, threads: 1))
    let port = try server.start(handler)
    defer { server.stop() }
    let held = Locked<[Int]>([])
    let group = DispatchGroup()
    // Threads of their own: the shared pool may be busy with other tests.
    for _ in 0..<3 {
      group.enter()
      Thread {
        let status = RawHTTPClient.status(RawHTTPClient.exchange(port: port, "GET /later HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", timeout: 20, halfClose: false))
        held.withLock { $0.append(status) }
        group.leave()
      }.start()
    }
    for _ in 0..<3 { #expect(handler.later.arrived.wait(timeout: .now() + 10) == .success) }
    // Three requests wait on the server's only thread; others are still answered.
    for _ in 0..<20 {
      #expect(RawHTTPClient.status(RawHTTPClient.exchange(port: port, "GET /health HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", timeout: 5)) == 200)
    }
    #expect(held.withLock { $0 }.isEmpty, "nothing answered the held requests yet")
    handler.later.release(HTTPResponse(status: 201))
    #expect(group.wait(timeout: .now() + 10) == .success)
    #expect(held.withLock { $0 } == [201, 201, 201])
  }

  @Test func stoppingAnswersARequestStillWaiting() throws {
    let handler = Mixed()
    let server = MicroHTTPServer(options: HTTPServerOptions(port: 0, threads: 1))
    server.drainSeconds = 0.2
    let port = try server.start(handler)
    let status = Locked<Int?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread {
      status.withLock { $0 = RawHTTPClient.status(RawHTTPClient.exchange(port: port, "GET /later HTTP/1.1\r\nHost: a\r\n\r\n", timeout: 20, halfClose: false)) }
      done.signal()
    }.start()
    #expect(handler.later.arrived.wait(timeout: .now() + 10) == .success)
    server.stop()
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(status.withLock { $0 } == 503, "the waiting request is told the server stopped")
    #expect(server.requestsInFlight == 0)
    // Its handler's answer, when it comes at last, goes nowhere.
    handler.later.release(HTTPResponse(status: 200))
  }
}

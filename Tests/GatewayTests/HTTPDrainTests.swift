import Dispatch
import Foundation
import Gateway
import Locking
import MicroHTTP
import TestSupport
import Testing

/// Stopping does not cut requests in flight: new connections are refused
/// at once, a request being handled gets its answer, then the server stops.
@Suite struct HTTPDrainTests {
  final class Answers: Sendable {
    private let values = Locked<[Int]>([])
    func add(_ status: Int) { values.withLock { $0.append(status) } }
    var all: [Int] { values.withLock { $0 } }
  }

  @Test func aRequestInFlightIsAnsweredAndNewConnectionsAreRefused() throws {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let handler = RecordingHTTPHandler { _ in
      entered.signal()
      release.wait()
      return HTTPResponse(status: 200, body: Data("stored".utf8))
    }
    let server = MicroHTTPServer(options: HTTPServerOptions(port: 0))
    let port = try server.start(handler)
    let answers = Answers()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      answers.add(RawHTTPClient.status(RawHTTPClient.exchange(port: port, "POST /owntracks HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}", timeout: 20)))
    }
    entered.wait()
    server.beginStopping()
    #expect(RawHTTPClient.exchange(port: port, "GET /health HTTP/1.1\r\nHost: a\r\n\r\n", timeout: 2).isEmpty, "no new connection is served")
    let inFlight = Answers()
    // The handler finishes while the server is stopping.
    server.stop { count in
      inFlight.add(count)
      release.signal()
    }
    group.wait()
    #expect(inFlight.all == [1])
    #expect(answers.all == [200], "the request in flight got its answer")
    #expect(handler.requests.count == 1)
  }
}

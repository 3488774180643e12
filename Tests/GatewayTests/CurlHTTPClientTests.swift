import CurlHTTP
import Foundation
import Gateway
import MicroHTTP
import TestSupport
import Testing

/// The product's HTTP client (libcurl, loaded at the first request) and the
/// tests' in-process one keep the same promises.
@Suite struct CurlHTTPClientTests {
  @Test func curlPassesTheSenderSuiteAgainstLibmicrohttpd() throws {
    try HTTPSenderConformance.verify(sender: CurlHTTPClient()) { handler in
      let server = MicroHTTPServer(options: HTTPServerOptions(port: 0))
      let port = try server.start(handler)
      return (URL(string: "http://127.0.0.1:\(port)/")!, { server.stop() })
    }
  }

  @Test func theInProcessSenderPassesTheSenderSuite() throws {
    let sender = InProcessHTTPSender()
    try HTTPSenderConformance.verify(sender: sender) { sender.serve($0) }
  }

  @Test func libmicrohttpdPassesTheServerSuiteThroughCurl() throws {
    try GatewayConformance.verify(server: { MicroHTTPServer(options: $0) }) { _, port, request in
      guard let url = request.loopbackURL(port: port) else { return nil }
      return try? CurlHTTPClient().send(request.method, url, headers: request.headers, body: request.body.isEmpty ? nil : request.body, timeout: 5)
    }
  }

  @Test func curlSendsAnEmptyBodyAsContentLengthZeroAndNoExpect() throws {
    let handler = RecordingHTTPHandler()
    let server = MicroHTTPServer(options: HTTPServerOptions(port: 0))
    let port = try server.start(handler)
    defer { server.stop() }
    let base = URL(string: "http://127.0.0.1:\(port)/")!
    #expect(try CurlHTTPClient().send("POST", base, headers: [:], body: Data(), timeout: 10).status == 200)
    #expect(try CurlHTTPClient().send("POST", base, headers: [:], body: Data(repeating: 7, count: 40_000), timeout: 10).status == 200)
    #expect(handler.requests.map { $0.header("Content-Length") } == ["0", "40000"])
    #expect(handler.requests.allSatisfy { $0.header("Expect") == nil })
  }
}

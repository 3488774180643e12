import Foundation
import Gateway
import MicroHTTP
import Sodium
import TestSupport
import Testing

/// Every implementation of the daemon's door ports passes the shared suites.
@Suite struct GatewayConformanceTests {
  @Test func sodiumTokensPassTheSignerSuite() throws {
    try GatewayConformance.verify(
      signer: try SodiumTokenSigner(key: SodiumTokenSigner.generateKey()), other: try SodiumTokenSigner(key: SodiumTokenSigner.generateKey()))
  }

  @Test func theFakeSignerPassesTheSignerSuite() throws {
    try GatewayConformance.verify(signer: FakeTokenSigner(key: "a"), other: FakeTokenSigner(key: "b"))
  }

  @Test func argon2idPassesTheHasherSuite() throws {
    // The lowest cost libsodium allows keeps the test quick; the suite checks behaviour, not strength.
    let hasher = Argon2idHasher(operations: 1, memoryBytes: 8192)
    try GatewayConformance.verify(hasher: hasher)
    #expect(try hasher.hash("x").hasPrefix("$argon2id$v=19$"))
  }

  @Test func theFakeHasherPassesTheHasherSuite() throws {
    try GatewayConformance.verify(hasher: FakePasswordHasher())
  }

  @Test func libmicrohttpdPassesTheServerSuite() throws {
    let client = TestHTTPClient(timeout: 5)
    try GatewayConformance.verify(server: { MicroHTTPServer(options: $0) }, send: { _, port, request in client.send(request, port: port) })
  }

  @Test func theDirectServerPassesTheServerSuite() throws {
    try GatewayConformance.verify(server: { DirectHTTPServer(options: $0) }, send: { server, _, request in (server as? DirectHTTPServer)?.send(request) })
  }

  @Test func aTokenIsBoundToItsKeyLength() {
    #expect(throws: SodiumError.self) { try SodiumTokenSigner(key: Data(repeating: 1, count: 16)) }
  }

  /// RFC 4231 test case 2, so receivers in any language get the same tag.
  @Test func hmacMatchesRFC4231() {
    let tag = SodiumHMAC().tag(Data("what do ya want for nothing?".utf8), key: Data("Jefe".utf8))
    #expect(tag.map { String(format: "%02x", $0) }.joined() == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
  }

  @Test func basicCredentialsAreReadFromTheHeader() {
    let request = HTTPRequest(method: "GET", path: "/", headers: ["Authorization": "Basic " + Data("alice:pa:ss".utf8).base64EncodedString()])
    #expect(request.basicCredentials?.user == "alice")
    #expect(request.basicCredentials?.password == "pa:ss")
    #expect(HTTPRequest(method: "GET", path: "/", headers: ["Authorization": "Bearer x"]).basicCredentials == nil)
    #expect(HTTPRequest(method: "GET", path: "/", headers: ["Authorization": "Basic !!!"]).basicCredentials == nil)
  }

  @Test func aServerRefusesASecondStartAndABusyPort() throws {
    let first = MicroHTTPServer(options: HTTPServerOptions(port: 0))
    let port = try first.start(RecordingHTTPHandler())
    defer { first.stop() }
    #expect(throws: HTTPServerError.self) { try first.start(RecordingHTTPHandler()) }
    let second = MicroHTTPServer(options: HTTPServerOptions(port: port))
    #expect(throws: HTTPServerError.self) { try second.start(RecordingHTTPHandler()) }
  }
}

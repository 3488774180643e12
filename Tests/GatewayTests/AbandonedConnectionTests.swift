import Foundation
@testable import MicroHTTP
import Testing

/// The deadline sweep also cuts a connection whose client has gone while
/// it still owed bytes, so the address's slot is free within a second even
/// when the server missed the close; never one whose bytes wait unread.
@Suite struct AbandonedConnectionTests {
  func pair() throws -> (server: Int32, client: Int32) {
    var ends: [Int32] = [0, 0]
    try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
    return (ends[0], ends[1])
  }

  @Test func aClientStillConnectedIsNotAbandoned() throws {
    let (server, client) = try pair()
    defer { close(server); close(client) }
    _ = "GET /health HTTP/1.1\r\n".withCString { send(client, $0, 22, 0) }
    var buffer = [UInt8](repeating: 0, count: 64)
    _ = recv(server, &buffer, buffer.count, 0)
    #expect(!RequestDeadlines.abandoned(server))
  }

  @Test func aClientThatClosedIsAbandonedOnceWhatItSentIsRead() throws {
    let (server, client) = try pair()
    defer { close(server) }
    _ = "GET /health HTTP/1.1\r\n".withCString { send(client, $0, 22, 0) }
    close(client)
    #expect(!RequestDeadlines.abandoned(server), "a request sent whole before the close is still to be read and answered")
    var buffer = [UInt8](repeating: 0, count: 64)
    #expect(recv(server, &buffer, buffer.count, 0) == 22)
    #expect(RequestDeadlines.abandoned(server))
  }

  @Test func aClientThatOnlyStoppedSendingIsAbandonedToo() throws {
    let (server, client) = try pair()
    defer { close(server); close(client) }
    shutdown(client, Int32(SHUT_WR))
    #expect(RequestDeadlines.abandoned(server), "nothing more can come from it")
  }
}

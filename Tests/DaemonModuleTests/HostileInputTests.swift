@testable import Daemon
import Foundation
import Gateway
import Persistence
import Testing
import TestSupport

/// The corpus in Corpus/hostile.json: malformed, oversized, truncated,
/// wrongly typed and cross-user requests. Each gets its 4xx, a JSON error
/// with a message, and changes nothing in anyone's store.
@Suite struct HostileInputTests {
  struct Case: Decodable, CustomTestStringConvertible {
    let name: String
    let status: Int
    let method: String
    let path: String
    let body: String?
    let bodyBase64: String?
    let repeatCount: Int?
    let user: String?
    let password: String?
    let headers: [String: String]?
    let query: [String: String]?

    enum CodingKeys: String, CodingKey {
      case name, status, method, path, body, bodyBase64, user, password, headers, query
      case repeatCount = "repeat"
    }

    var testDescription: String { name }

    var payload: Data {
      if let bodyBase64 { return Data(base64Encoded: bodyBase64) ?? Data() }
      let text = body ?? ""
      return Data((repeatCount.map { String(repeating: text, count: $0) } ?? text).utf8)
    }
  }

  static let corpus: [Case] = {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus/hostile.json")
    guard let data = try? Data(contentsOf: path), let cases = try? JSONDecoder().decode([Case].self, from: data) else { return [] }
    return cases
  }()

  @Test func theCorpusIsThere() {
    #expect(Self.corpus.count >= 40)
  }

  @Test(arguments: corpus)
  func eachIsRefusedWithoutChangingAnything(_ hostile: Case) throws {
    let daemon = try DaemonHarness()
    // Something real to damage: a task and a recent fix.
    _ = daemon.addTask("Buy milk")
    _ = daemon.send("POST", "/owntracks", body: daemon.location(north: 3000))
    let before = try ["alice", "bob"].map { try daemon.store($0).operations(since: nil).count }
    var headers = hostile.headers ?? [:]
    if let user = hostile.user {
      let secret = hostile.password ?? DaemonHarness.passwords[user] ?? "x"
      headers["Authorization"] = "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString()
    }
    let response = daemon.server.send(
      HTTPRequest(method: hostile.method, path: hostile.path, query: hostile.query ?? [:], headers: headers, body: hostile.payload))
    #expect(response?.status == hostile.status, "\(hostile.name): \(String(decoding: response?.body ?? Data(), as: UTF8.self).prefix(200))")
    let error = response.flatMap { try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any] }?["error"] as? String
    #expect(error?.isEmpty == false, "\(hostile.name): the refusal must say why")
    let after = try ["alice", "bob"].map { try daemon.store($0).operations(since: nil).count }
    #expect(before == after, "\(hostile.name) changed a store")
  }
}

/// The same corpus over real sockets through libmicrohttpd, as a phone or
/// an attacker would send it: the same answers, nothing stored, no crash.
@Suite struct HostileInputOverHTTPTests {
  @Test func theCorpusOverRealHTTPChangesNothing() throws {
    let daemon = try RemoteStoreTests.Server()
    let client = TestHTTPClient(timeout: 10)
    let base = daemon.base.absoluteString
    let before = try daemon.host.people.byName.values.map { try $0.store.operations(since: nil).count }
    var sent = 0
    for hostile in HostileInputTests.corpus {
      // The corpus names people alice and bob; here they are p0 and p1.
      let user = hostile.user.map { $0 == "alice" ? "p0" : $0 == "bob" ? "p1" : $0 }
      let password = hostile.password ?? user.map { "secret-\($0)" }
      var components = URLComponents(string: base + hostile.path)
      if let query = hostile.query { components?.queryItems = query.map { URLQueryItem(name: $0.key, value: $0.value) } }
      guard let url = components?.url?.absoluteString else { continue }
      var headers = (hostile.headers ?? [:]).mapValues { $0 == "bob" ? "p1" : $0 }
      if let user, let password { headers["Authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }
      guard let response = try? client.send(hostile.method, url, headers: headers, body: hostile.payload.isEmpty ? nil : hostile.payload) else { continue }
      sent += 1
      // Over sockets a device rule may differ (p1 has no device list); every answer is still a refusal.
      let refused = (400..<500).contains(response.status) || (hostile.name.contains("device") && response.status == 200)
      #expect(refused, "\(hostile.name): \(response.status)")
    }
    #expect(sent >= 40, "most of the corpus must reach the server")
    let after = try daemon.host.people.byName.values.map { try $0.store.operations(since: nil).count }
    #expect(before == after)
  }
}

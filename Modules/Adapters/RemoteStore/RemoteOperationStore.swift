import Domain
import Foundation
import Gateway
import Locking
import Persistence


/// `remote:URL`: a person's store held by whilehered, reached through its
/// JSON API, so the same CLI commands work from a laptop while the daemon
/// holds the store. Opening reads every record once; each write is one
/// request the server makes durable as one unit before answering.
public final class RemoteOperationStore: OperationStore, Sendable {
  public let replica: ReplicaID
  public let base: URL
  private let authorization: String
  private let timeout: TimeInterval
  private let client: any HTTPSending
  private let core: Locked<StoreCore>
  private let closed = Locked(false)

  /// Fetches the store's replica and every record.
  public init(url: URL, user: String, password: String, client: any HTTPSending, timeout: TimeInterval = 30) throws {
    base = url
    self.client = client
    authorization = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    self.timeout = timeout
    let info = try Self.decode(StoreInfo.self, from: Self.send(client, "GET", url.appendingPathComponent("api/v1/store"), authorization, nil, timeout), url)
    replica = try ReplicaID(info.replica)
    var core = StoreCore(replica: replica)
    let records = try Self.decode([OperationRecord].self, from: Self.send(client, "GET", url.appendingPathComponent("api/v1/operations"), authorization, nil, timeout), url)
    core.reserveCapacity(records.count)
    core.apply(records)
    self.core = Locked(core)
  }

  struct StoreInfo: Decodable {
    let replica: String
  }

  @discardableResult
  public func append(_ operations: [StoreOperation]) throws -> [OperationRecord] {
    guard !operations.isEmpty else { return [] }
    try checkOpen()
    // Placeholder stamps: the server stamps the batch itself.
    let placeholder = HLCTimestamp(wallMillis: 0, counter: 0, replica: replica)
    let records = try post(["append": operations.map { OperationRecord(stamp: placeholder, operation: $0) }])
    core.withLock { $0.apply(records) }
    return records
  }

  @discardableResult
  public func merge(_ records: [OperationRecord]) throws -> [OperationRecord] {
    try checkOpen()
    guard !records.isEmpty else { return [] }
    let changed = try post(["merge": records])
    core.withLock { $0.apply(changed) }
    return changed
  }

  public func state() -> StoreState { core.withLock { $0.state } }

  public func operations(since: HLCTimestamp?) throws -> [OperationRecord] {
    try checkOpen()
    var components = URLComponents(url: base.appendingPathComponent("api/v1/operations"), resolvingAgainstBaseURL: false)!
    if let since { components.queryItems = [URLQueryItem(name: "since", value: since.description)] }
    return try Self.decode([OperationRecord].self, from: Self.send(client, "GET", components.url!, authorization, nil, timeout), base)
  }

  public func describe() -> StoreDescription {
    let state = state()
    return StoreDescription(
      kind: "remote", location: base.absoluteString,
      details: [("replica", replica.rawValue), ("tasks", String(state.tasks.count)), ("places", String(state.places.count))])
  }

  public func close() { closed.withLock { $0 = true } }

  private func checkOpen() throws {
    if closed.withLock({ $0 }) { throw StoreError.closed }
  }

  private func post(_ body: [String: [OperationRecord]]) throws -> [OperationRecord] {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    let data = try encoder.encode(body)
    return try Self.decode([OperationRecord].self, from: Self.send(client, "POST", base.appendingPathComponent("api/v1/operations"), authorization, data, timeout), base)
  }

  static func decode<T: Decodable>(_ type: T.Type, from data: Data, _ url: URL) throws -> T {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    do {
      return try decoder.decodeOutside(type, from: data)
    } catch {
      throw StoreError.io(path: url.absoluteString, operation: "read the answer of", reason: "it is not what whilehered sends (\(error))")
    }
  }

  /// One request; a non-2xx answer becomes a `StoreError` carrying the server's message.
  static func send(_ client: any HTTPSending, _ method: String, _ url: URL, _ authorization: String, _ body: Data?, _ timeout: TimeInterval) throws -> Data {
    var headers = ["Authorization": authorization]
    if body != nil { headers["Content-Type"] = "application/json" }
    let response: HTTPResponse
    do {
      response = try client.send(method, url, headers: headers, body: body, timeout: timeout)
    } catch {
      throw StoreError.io(path: url.absoluteString, operation: "reach", reason: "\(error)")
    }
    if response.status == 401 {
      throw StoreError.io(path: url.absoluteString, operation: "log in to", reason: "the server refused the user name or password (HTTP 401)")
    }
    guard (200..<300).contains(response.status) else {
      let said: String? = if case .object(let object)? = try? JSONParser.parse(response.body), case .string(let error)? = object["error"] { error } else { nil }
      let message = said ?? "HTTP \(response.status)"
      throw StoreError.io(
        path: url.absoluteString, operation: "\(method == "GET" ? "read" : "write") through", reason: "the server answered \(response.status): \(message)")
    }
    return response.body
  }
}

import Domain
import Foundation

/// What a running whilehered last said about itself, written beside its
/// store (`daemon-status.json`, 0600) every few seconds so `whilehere
/// doctor` can show delivery trouble without talking to the daemon.
public struct DaemonStatus: Codable, Equatable, Sendable {
  public struct Deliveries: Codable, Equatable, Sendable {
    public var delivered = 0
    public var retrying = 0
    public var failed = 0
    public var lastError: String?

    public init(delivered: Int = 0, retrying: Int = 0, failed: Int = 0, lastError: String? = nil) {
      self.delivered = delivered
      self.retrying = retrying
      self.failed = failed
      self.lastError = lastError
    }
  }

  public var pid: Int32
  public var updatedAt: Date
  public var listening: String
  public var running: Bool
  /// Per person whose sinks delivered, retried or failed anything (others are left out).
  public var deliveries: [String: Deliveries]

  public init(pid: Int32, updatedAt: Date, listening: String, running: Bool, deliveries: [String: Deliveries]) {
    self.pid = pid
    self.updatedAt = updatedAt
    self.listening = listening
    self.running = running
    self.deliveries = deliveries
  }

  /// Beside a store on this machine's disk; nowhere for other stores.
  public static func path(store: String, environment: [String: String]) -> String? {
    ProviderRegistry.storeHome(store, environment: environment).map { $0 + "/daemon-status.json" }
  }

  public func write(to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    let temporary = path + ".tmp"
    guard FileManager.default.createFile(atPath: temporary, contents: try encoder.encode(self), attributes: [.posixPermissions: 0o600]),
      rename(temporary, path) == 0
    else { throw ConfigError.unreadable(path: path, reason: "cannot write the daemon status") }
  }

  public static func read(from path: String) -> DaemonStatus? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try? decoder.decodeOutside(DaemonStatus.self, from: data)
  }
}

#if canImport(Glibc)
  import Glibc
#endif
import Domain
import Foundation

/// How the CLI finds a whilehered running on its own store and goes through
/// it instead of waiting for a lock the daemon never lets go. The daemon
/// writes `daemon.local.json` (0600, beside the store it holds) with its
/// loopback URL and a random token it accepts only from loopback, as any
/// configured person's password; it removes the file when it stops. Only
/// the store's owner can read the file, and the owner can read the store.
public struct LocalDaemon: Codable, Equatable, Sendable {
  public var pid: Int32
  public var url: String
  public var token: String

  public init(pid: Int32, url: String, token: String) {
    self.pid = pid
    self.url = url
    self.token = token
  }

  public static let fileName = "daemon.local.json"

  public static func path(store: String, environment: [String: String]) -> String? {
    ProviderRegistry.storeHome(store, environment: environment).map { $0 + "/" + fileName }
  }

  /// 32 random bytes, hex.
  public static func makeToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
  }

  public func write(to path: String) throws {
    let temporary = path + ".tmp"
    guard FileManager.default.createFile(atPath: temporary, contents: try JSONEncoder().encode(self), attributes: [.posixPermissions: 0o600]),
      rename(temporary, path) == 0
    else { throw ConfigError.unreadable(path: path, reason: "cannot write the daemon's local access file") }
  }

  /// The daemon on this store, if one is running (its pid alive) and said how to reach it.
  public static func running(store: String, environment: [String: String]) -> LocalDaemon? {
    guard let path = path(store: store, environment: environment), let data = FileManager.default.contents(atPath: path),
      let found = try? JSONDecoder().decodeOutside(LocalDaemon.self, from: data), found.pid > 0
    else { return nil }
    // A daemon killed without stopping leaves the file; its pid is gone (or another user's, EPERM).
    guard kill(found.pid, 0) == 0 else { return nil }
    return found
  }

  /// Whom the CLI acts as through the daemon: WHILEHERE_USER, else the only
  /// configured person; nil when that cannot be told.
  public static func person(people: [String], environment: [String: String]) -> String? {
    if let named = environment["WHILEHERE_USER"], !named.isEmpty { return people.contains(named) ? named : nil }
    return people.count == 1 ? people[0] : nil
  }
}

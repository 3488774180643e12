import Foundation
import NATSStore
import Sodium

/// `whilehere cluster mqtt`: the nats-server configuration that takes
/// OwnTracks phones on NATS's own MQTT listener for the cluster of
/// `cluster.nats`, with a new token for the workers and for each person
/// (shown once; the configuration keeps only their bcrypt).
public enum ClusterMQTTSetup {
  public struct Issued: Sendable {
    /// To include in every NATS node's configuration.
    public let configuration: String
    /// The workers' NATS user and token (for `cluster.nats`, the `nats:`
    /// store and `mqtt.user` / `mqtt.password`).
    public let workerUser: String
    public let workerToken: String
    /// Each person's token, by name: their OwnTracks app's password.
    public let tokens: [String: String]
  }

  public static func issue(_ settings: Settings, people names: [String], port: Int, workerUser: String = "whilehere") throws -> Issued {
    guard !settings.clusterNATS.isEmpty else {
      throw ConfigError.invalidValue(source: "cluster.nats", key: "cluster.nats", value: "", allowed: "the cluster's NATS servers (nats://HOST:4222;stream=NAME)")
    }
    guard (1...65535).contains(port) else {
      throw ConfigError.invalidValue(source: "--port", key: "port", value: String(port), allowed: "a TCP port, 1-65535")
    }
    let location = try NATSLocation(settings.clusterNATS)
    let chosen = names.isEmpty ? settings.people.keys.sorted() : names
    for name in chosen where settings.people[name] == nil {
      throw ConfigError.invalidValue(
        source: "people", key: "people.\(name)", value: name, allowed: "one of the people in the config (\(settings.people.keys.sorted().joined(separator: ", ")))")
    }
    for name in chosen + [workerUser] { try NATSMQTTAccess.check(person: name) }
    var tokens: [String: String] = [:]
    var users: [NATSMQTTAccess.User] = []
    for name in chosen {
      let token = DeviceKey.newToken()
      tokens[name] = token
      users.append(NATSMQTTAccess.User(name: name, passwordHash: try NATSMQTTAccess.hash(token)))
    }
    let workerToken = DeviceKey.newToken()
    let configuration = try NATSMQTTAccess.configuration(
      stream: location.stream, partitions: settings.clusterPartitions, port: port,
      workers: NATSMQTTAccess.User(name: workerUser, passwordHash: try NATSMQTTAccess.hash(workerToken)), people: users)
    return Issued(configuration: configuration, workerUser: workerUser, workerToken: workerToken, tokens: tokens)
  }

  /// Writes `text` to `path` (0600: it names the users) in one step.
  public static func write(_ text: String, to path: String) throws {
    try ConfigFileEditor.writePrivately(Data(text.utf8), to: path)
  }
}

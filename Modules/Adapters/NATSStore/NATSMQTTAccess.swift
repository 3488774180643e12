import CCrypt
import Foundation

/// The part of nats-server's configuration that lets OwnTracks phones
/// publish to its own MQTT listener: the listener, the mappings that file
/// each report on its person's partition (`NATSReportQueue.mqttMappings`)
/// and users. Each person may publish only their own reports and read only
/// their own topics (nats-server checks a publish against the subject the
/// mapping gives it) and only over MQTT: a QoS 1 subscription is delivered
/// on an internal `$MQTT.sub.…` subject the user must be let read, which
/// nats-server lets no MQTT topic name (a `$MQTT/sub/#` subscription is
/// refused) and the NATS protocol would. The workers' user may do
/// anything. Passwords are kept as bcrypt hashes, the form nats-server
/// compares against.
public enum NATSMQTTAccess {
  public struct User: Sendable {
    public let name: String
    /// bcrypt of the user's token (`hash(_:)`).
    public let passwordHash: String
    public init(name: String, passwordHash: String) {
      self.name = name
      self.passwordHash = passwordHash
    }
  }

  public struct Refusal: Error, CustomStringConvertible {
    public let description: String
  }

  /// What an MQTT user name (a person's name) may be: a single NATS
  /// subject token, as nats-server 2.9 turns `owntracks/NAME/DEVICE` into
  /// `owntracks.NAME.DEVICE` and refuses topics with a dot.
  public static func check(person name: String) throws {
    let refused = name.isEmpty || name.unicodeScalars.contains { ".*> \t\r\n/+#\"\\".unicodeScalars.contains($0) || $0.value < 0x20 }
    guard !refused else {
      throw Refusal(description: "'\(name)' cannot be an MQTT user on NATS (no dots, spaces, quotes, /, +, #, * or >)")
    }
  }

  /// bcrypt of `token`. The tokens are random (256 bits), not chosen
  /// passwords, so the hash's cost guards nothing: the lowest bcrypt
  /// allows keeps every phone's connection cheap for nats-server.
  public static func hash(_ token: String) throws -> String {
    var salt = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
    guard crypt_gensalt_rn("$2b$", 4, nil, 0, &salt, Int32(salt.count)) != nil else {
      throw Refusal(description: "libcrypt has no bcrypt (crypt_gensalt: \(String(cString: strerror(errno))))")
    }
    var data = crypt_data()
    guard let hashed = crypt_r(token, salt, &data), hashed.pointee != 0x2A else {
      throw Refusal(description: "libcrypt could not hash with bcrypt")
    }
    return String(cString: hashed)
  }

  /// The configuration to include in every node's (`include
  /// whilehere-mqtt.conf`): the MQTT listener on `port`, the mappings onto
  /// `stream`'s queue of `partitions`, and the users.
  public static func configuration(stream: String, partitions: Int, port: Int, workers: User, people: [User]) throws -> String {
    for person in people { try check(person: person.name) }
    var lines = [
      "# OwnTracks phones on this server's MQTT listener, for WhileHere's workers",
      "# (made by `whilehere cluster mqtt`; Docs/Cluster.md).",
      "mqtt { port: \(port) }",
      "mappings = {",
    ]
    lines += NATSReportQueue.mqttMappings(stream: stream, partitions: partitions).map { "  " + $0 }
    lines += ["}", "authorization {", "  users = ["]
    lines.append("    { user: \"\(workers.name)\", password: \"\(workers.passwordHash)\" }")
    for person in people {
      let own = NATSReportQueue.mqttSubjects(stream: stream, person: person.name)
      lines.append(
        "    { user: \"\(person.name)\", password: \"\(person.passwordHash)\", allowed_connection_types: [\"MQTT\"], permissions: { publish: { allow: [\"owntracks.\(person.name).>\", \"\(own)\"] }, subscribe: { allow: [\"owntracks.\(person.name).>\", \"$MQTT.sub.>\"] } } }"
      )
    }
    lines += ["  ]", "}"]
    return lines.joined(separator: "\n") + "\n"
  }
}

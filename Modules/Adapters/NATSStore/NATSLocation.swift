/// Where a `nats:` store lives, from its argument:
/// `nats://HOST:4222[,nats://…][;stream=WHILEHERE][;log=NAME][;replicas=N]`.
/// One JetStream stream holds many logs, each on its own subject.
public struct NATSLocation: Sendable, Equatable {
  public var servers: String
  public var stream = "WHILEHERE"
  public var log = "main"
  public var replicas = 1

  public struct Invalid: Error, CustomStringConvertible {
    public let description: String
  }

  public init(_ argument: String) throws {
    let parts = argument.split(separator: ";").map(String.init)
    guard let first = parts.first, first.hasPrefix("nats://") || first.hasPrefix("tls://") else {
      throw Invalid(description: "'\(argument)' does not start with nats://HOST:PORT")
    }
    servers = first
    for part in parts.dropFirst() {
      let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
      guard pair.count == 2 else { throw Invalid(description: "'\(part)' is not KEY=VALUE (stream, log, replicas)") }
      switch pair[0] {
      case "stream":
        guard Self.isToken(pair[1]) else { throw Invalid(description: "stream '\(pair[1])' must be letters, digits, - or _") }
        stream = pair[1]
      case "log":
        guard Self.isToken(pair[1]) else { throw Invalid(description: "log '\(pair[1])' must be letters, digits, - or _") }
        log = pair[1]
      case "replicas":
        guard let count = Int(pair[1]), (1...5).contains(count) else { throw Invalid(description: "replicas must be 1 to 5") }
        replicas = count
      default:
        throw Invalid(description: "unknown option '\(pair[0])' (stream, log, replicas)")
      }
    }
  }

  /// The same stream, another log (a daemon's person).
  public func with(log name: String) -> NATSLocation {
    var other = self
    other.log = name
    return other
  }

  public var argument: String { "\(servers);stream=\(stream);log=\(log);replicas=\(replicas)" }

  /// `argument` with each server's password (`nats://USER:PASSWORD@…`)
  /// left out: for messages, `describe` and `doctor`.
  public var shown: String { Self.redacting(argument) }

  /// `text` with the password of every `scheme://user:password@` in it
  /// replaced by `***`.
  public static func redacting(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let scheme = rest.range(of: "://") {
      result += rest[..<scheme.upperBound]
      rest = rest[scheme.upperBound...]
      let authority = rest.prefix { $0 != "/" && $0 != "," && $0 != ";" }
      if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
        result += rest[..<colon] + ":***"
        rest = rest[at...]
      }
    }
    return result + rest
  }
  var subjects: String { "wh.\(stream).>" }
  var logSubject: String { "wh.\(stream).log.\(log)" }
  var metaSubject: String { "wh.\(stream).meta.\(log)" }
  var snapshotSubject: String { "wh.\(stream).snap.\(log)" }

  static func isToken(_ text: String) -> Bool {
    !text.isEmpty && text.count <= 64 && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
  }
}

import Foundation

/// The person's answer to "share anonymous usage counts?", kept in
/// `$XDG_CONFIG_HOME/whilehere/analytics-consent` (0600). Nothing is
/// recorded before there is an answer, and the question is asked once.
public enum AnalyticsConsent: String, Sendable, Equatable {
  case allowed = "allow"
  case denied = "deny"
  case undecided

  public static func path(_ environment: [String: String]) -> String {
    XDG.configHome(environment) + "/whilehere/analytics-consent"
  }

  public static func load(_ environment: [String: String]) -> AnalyticsConsent {
    guard let data = FileManager.default.contents(atPath: path(environment)) else { return .undecided }
    return AnalyticsConsent(rawValue: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .undecided
  }

  public static func save(_ choice: AnalyticsConsent, _ environment: [String: String]) throws {
    let file = path(environment)
    try FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    guard FileManager.default.createFile(atPath: file, contents: Data((choice.rawValue + "\n").utf8), attributes: [.posixPermissions: 0o600]) else {
      throw ConfigError.unreadable(path: file, reason: "cannot write")
    }
  }
}

#if canImport(Glibc)
  import Glibc
#endif
import Foundation

/// What whilehered refuses in a `notify` entry, checked without building
/// anything (no file created, nothing sent), so `whilehere doctor` says the
/// same before a start and the daemon says it at one.
public enum NotifyCheck {
  public static let known = ["console", "desktop", "jsonl", "ntfy", "webhook"]

  /// Throws what the daemon would refuse `spec` for, as a config error.
  public static func validate(_ spec: String, person: String, settings: PersonSettings, environment: [String: String]) throws {
    let provider = ProviderSpec(spec)
    func invalid(_ form: String) -> ConfigError { ConfigError.invalidValue(source: "notify", key: "notify", value: spec, allowed: form) }
    switch provider.name {
    case "console", "desktop":
      return
    case "jsonl":
      guard let path = provider.argument, !path.isEmpty else { throw invalid("jsonl:PATH") }
      let full = XDG.expandTilde(path, environment)
      let directory = (full as NSString).deletingLastPathComponent.isEmpty ? "." : (full as NSString).deletingLastPathComponent
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw invalid("jsonl:PATH in a directory that exists (\(directory) does not)")
      }
      guard access(directory, W_OK) == 0 else { throw invalid("jsonl:PATH in a directory whilehered may write (\(directory) is not writable)") }
    case "ntfy":
      guard let address = provider.argument, let url = URL(string: address), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
        throw invalid("ntfy:https://HOST/TOPIC")
      }
      guard url.path.split(separator: "/").count >= 1 else { throw invalid("ntfy:https://HOST/TOPIC (a topic after the host)") }
    case "webhook":
      guard let address = provider.argument, let url = URL(string: address), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
        throw invalid("webhook:https://HOST/PATH")
      }
      guard !settings.webhookSecret.isEmpty else {
        throw ConfigError.invalidValue(
          source: "people.\(person)", key: "people.\(person).webhookSecret", value: "", allowed: "a secret the receiver shares, to sign webhook requests")
      }
    default:
      throw ConfigError.unknownProvider(port: "notify", name: provider.name, known: known)
    }
  }

  /// Every refusal for a config's people: "person: message".
  public static func problems(_ settings: Settings, environment: [String: String]) -> [String] {
    var found: [String] = []
    for name in settings.people.keys.sorted() {
      let person = settings.people[name]!
      for spec in settings.notify + person.notify {
        do { try validate(spec, person: name, settings: person, environment: environment) } catch { found.append("\(name): \(error)") }
      }
    }
    return found
  }
}

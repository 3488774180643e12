import Foundation
import Notifications

/// What whilehered refuses in a `notify` entry, checked without building
/// anything (no file created, nothing sent), so `whilehere doctor` says the
/// same before a start and the daemon says it at one.
public enum NotifyCheck {
  /// The sink names the standard registry knows.
  public static var known: [String] { ProviderRegistry.standard.notify.keys.sorted() }

  /// Throws what the daemon would refuse `spec` for, as a config error
  /// (`registry`: the daemon's own, when it knows other sinks).
  public static func validate(
    _ spec: String, person: String, settings: PersonSettings, environment: [String: String], registry: ProviderRegistry = .standard
  ) throws {
    let input = NotifyFactory.Input(
      spec: spec, person: person, settings: settings, environment: environment, links: NoLinks(), answer: { _, _ in }, log: { _, _ in },
      retryDelay: 0)
    try registry.sinkFactory(spec).check(input)
  }

  /// A check builds nothing, so it needs no links.
  struct NoLinks: ActionLinkMaker {
    func links(for notification: ReminderNotification) -> [ActionLink] { [] }
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

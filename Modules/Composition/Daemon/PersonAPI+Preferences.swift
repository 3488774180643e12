import Foundation

extension PersonAPI {
  /// What the page asks once: the welcome seen, and the person's analytics
  /// choice (usage counts leave only when the operator switched them on and
  /// the person allowed them).
  struct Preferences: Encodable {
    let welcomed: Bool
    let analytics: String?
    let analyticsOffered: Bool
  }

  struct PreferencesChange: Decodable {
    let welcomed: Bool?
    let analytics: String?
  }

  func preferences() -> Preferences {
    let settings = person.store.state().settings
    return Preferences(
      welcomed: settings[Person.welcomedKey] != nil, analytics: settings[Person.analyticsKey], analyticsOffered: person.analyticsOffered)
  }
}

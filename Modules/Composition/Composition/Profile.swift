/// A profile only picks defaults; everything it picks can be overridden by
/// the config file, the environment and flags.
public enum Profile: String, Sendable, CaseIterable {
  /// `whilehere`: a person's own durable store.
  case cli
  /// `whilehered`: the same durable store, run as a daemon.
  case headless
  /// `whilehere-sim` and tests: in-memory store, manual clock, sequential ids.
  case testing

  func defaults(environment: [String: String]) -> Settings {
    var settings = Settings()
    switch self {
    case .cli, .headless:
      // The daemon logs reminders (with their answer links) unless the config names other sinks.
      if self == .headless { settings.notify = ["console"] }
      settings.store = "file:" + XDG.dataHome(environment) + "/whilehere"
      settings.clock = "system"
      settings.ids = "random"
    case .testing:
      settings.store = "memory"
      settings.clock = "manual"
      settings.ids = "sequential"
    }
    return settings
  }
}

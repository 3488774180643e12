/// The outcome of loading configuration: which profile, which file, and the
/// settings, ready for the registry to turn into providers.
public struct ResolvedConfig: Sendable, Equatable {
  public var profile: Profile
  public var profileSource: String
  /// The config file read, or nil when none exists (defaults are used).
  public var configFile: String?
  public var settings: Settings
}

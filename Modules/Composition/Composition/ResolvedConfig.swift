/// The outcome of loading configuration: which profile, which file, and the
/// settings, ready for the registry to turn into providers.
public struct ResolvedConfig: Sendable, Equatable {
  public var profile: Profile
  public var profileSource: String
  /// The config file read, or nil when none exists (defaults are used).
  public var configFile: String?
  public var settings: Settings
  /// Which program loaded it: the CLI shares a file store with other
  /// processes (reads without the writer lock); the daemon and the
  /// simulator hold theirs.
  public var program: Profile = .cli
}

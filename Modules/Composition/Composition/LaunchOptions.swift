/// What a program was started with: flags already parsed by the app, and
/// the process environment (injected, so tests pass their own).
public struct LaunchOptions: Sendable {
  public var program: Profile
  public var profile: Profile?
  public var configPath: String?
  /// Flag overrides by config key (`--store X` → `["store": "X"]`).
  public var overrides: [String: String]
  /// The flag each override came from, where its name is not the key's
  /// (`server.listen` ← `--listen`), so an error names what was typed.
  public var flags: [String: String] = [:]
  public var environment: [String: String]

  public init(
    program: Profile, profile: Profile? = nil, configPath: String? = nil, overrides: [String: String] = [:],
    environment: [String: String]
  ) {
    self.program = program
    self.profile = profile
    self.configPath = configPath
    self.overrides = overrides
    self.environment = environment
  }
}

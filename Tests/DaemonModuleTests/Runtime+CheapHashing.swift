import Composition
import Gateway

extension Runtime {
  /// whilehered's runtime over `config` with `hasher` as its
  /// `server.hasher` (Argon2id at its cheapest: a login costs tests
  /// milliseconds, not a tenth of a second), chosen as a deployment
  /// chooses one: a registry entry named by a setting.
  static func bootHashing(with hasher: any PasswordHasher, config: String, registry: ProviderRegistry = .standard, overrides: [String: String] = [:])
    throws -> Runtime
  {
    var registry = registry
    registry.hashers["cheap"] = PortFactory(summary: "Argon2id at its cheapest") { _ in hasher }
    return try Runtime.boot(
      LaunchOptions(program: .headless, profile: nil, configPath: config, overrides: overrides.merging(["server.hasher": "cheap"]) { $1 }, environment: [:]),
      registry: registry)
  }
}

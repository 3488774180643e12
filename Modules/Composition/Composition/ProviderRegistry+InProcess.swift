import Gateway

extension ProviderRegistry {
  /// This registry with whilehered's server in-process (`server.http`
  /// `direct`: requests handed straight to the handler, no sockets, the
  /// server kept in `slot`) and `hasher` as `server.hasher` `cheap`; and
  /// the settings that choose both. The simulator, tests and fuzzing run
  /// the daemon's own code this way.
  public func inProcess(server slot: DirectHTTPServerSlot, hasher: any PasswordHasher) -> (registry: ProviderRegistry, overrides: [String: String]) {
    var registry = self
    registry.servers["direct"] = PortFactory(summary: "requests handed to the handler, no sockets") { options in
      slot.keep(DirectHTTPServer(options: options))
    }
    registry.hashers["cheap"] = PortFactory(summary: "a hasher chosen by the caller (Argon2id at its cheapest)") { _ in hasher }
    return (registry, ["server.http": "direct", "server.hasher": "cheap"])
  }
}

import Foundation
import Gateway
import Geofencing
import Gpsd
import MQTT
import MicroHTTP
import Sodium

extension ProviderRegistry {
  /// whilehered's own ports: the HTTP server, the password hasher, the
  /// answer-link signer, the MQTT client and gpsd, each chosen by a
  /// setting (`server.http`, `server.hasher`, `server.signer`,
  /// `mqtt.client`, `gpsd.source`).
  static func registerDaemonPorts(_ registry: inout ProviderRegistry) {
    registry.servers["microhttpd"] = PortFactory(summary: "libmicrohttpd, an epoll thread per core, requests answered later suspended, strict framing, per-address limits") { options in
      MicroHTTPServer(options: options)
    }
    registry.hashers["argon2id"] = PortFactory(summary: "Argon2id (libsodium's moderate limits), about 0.1 s and 64 MiB per check") { _ in
      Argon2idHasher()
    }
    registry.signers["sodium"] = SignerFactory(
      summary: "HMAC-SHA-512-256 (libsodium) over a 32-byte key", keyLength: SodiumTokenSigner.keyLength,
      generateKey: { SodiumTokenSigner.generateKey() }, make: { key in try SodiumTokenSigner(key: key) })
    registry.brokers["mosquitto"] = PortFactory(summary: "libmosquitto, MQTT 3.1.1 with TLS, to the broker at mqtt.host") { settings in
      var options = MosquittoBroker.Options(
        host: settings.mqttHost, port: settings.mqttPort, user: settings.mqttUser.isEmpty ? nil : settings.mqttUser,
        password: settings.mqttPassword.isEmpty ? nil : settings.mqttPassword, clientID: settings.mqttClientID)
      options.caFile = settings.mqttCAFile.isEmpty ? nil : settings.mqttCAFile
      options.certFile = settings.mqttCertFile.isEmpty ? nil : settings.mqttCertFile
      options.keyFile = settings.mqttKeyFile.isEmpty ? nil : settings.mqttKeyFile
      return MosquittoBroker(options: options)
    }
    registry.sources["gpsd"] = PortFactory(summary: "gpsd's JSON watch stream at gpsd.host:gpsd.port") { input in
      GpsdSource(host: input.host, port: input.port, clock: input.clock, log: input.log)
    }
  }

  /// The entry `name` in `table`, or the error naming the setting and the known names.
  public func port<Entry>(_ key: String, _ name: String, in table: [String: Entry]) throws -> Entry {
    guard let entry = table[name] else { throw ConfigError.unknownProvider(port: key, name: name, known: table.keys.sorted()) }
    return entry
  }

  /// Every daemon port the settings name that this registry does not
  /// know, as the errors whilehered would stop with (`doctor` says them first).
  public func daemonPortProblems(_ settings: Settings) -> [ConfigError] {
    var found: [ConfigError] = []
    func check<Entry>(_ key: String, _ name: String, _ table: [String: Entry]) {
      if table[name] == nil { found.append(.unknownProvider(port: key, name: name, known: table.keys.sorted())) }
    }
    check("server.http", settings.serverHTTP, servers)
    check("server.hasher", settings.serverHasher, hashers)
    check("server.signer", settings.serverSigner, signers)
    if !settings.mqttHost.isEmpty { check("mqtt.client", settings.mqttClient, brokers) }
    if !settings.gpsdHost.isEmpty { check("gpsd.source", settings.gpsdSource, sources) }
    return found
  }
}

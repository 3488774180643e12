import Domain
import Foundation
import Engine
import Geofencing
import Notifications

/// Every configurable value after layering (profile defaults, config file,
/// `WHILEHERE_*` environment, flags), with where each one came from.
public struct Settings: Sendable, Equatable {
  public var store = ""
  public var clock = ""
  public var ids = ""
  /// The place provider (`osm-geojson` embedded, `osm-geojson:PATH`, `memory`).
  public var places = "osm-geojson"
  /// A JSON file extending the keyword → category table ("" for none).
  public var keywords = ""
  public var radiusMinimum = 25.0
  public var radiusMaximum = 10_000.0
  public var radiusDefault = 150.0
  /// The arrival engine's numbers (coverage, sessions, budget); the file's
  /// `arrival` object overrides any of them.
  public var arrival = ArrivalConfig()
  /// What the device allows (a phone reports it; set it to see how the
  /// engine degrades): the file's `permissions` object overrides it.
  public var permissions = Permissions()
  /// Button titles and the Remind Later duration: the file's `reminders` object.
  public var reminders = ReminderSettings()
  /// The daemon's HTTP server: `ADDRESS:PORT` to listen on, the public base
  /// URL phones reach it by (behind a TLS proxy), body and time limits, and
  /// the file holding the key that signs answer links.
  public var serverListen = "127.0.0.1:8083"
  public var serverURL = ""
  public var serverMaxBody = 65_536
  public var serverTimeout = 10
  /// Connections one address may hold at once (0: no limit; raise it behind a proxy).
  public var serverPerAddress = 64
  /// A request's headers are due this many seconds after its connection
  /// opens (or its last answer), its body at `serverMinBodyRate` bytes a
  /// second after them: slow clients are cut, whatever their address.
  public var serverHeaderTimeout = 10
  public var serverMinBodyRate = 1024
  /// Threads the HTTP server serves connections on (0: one per core).
  public var serverThreads = 0
  /// How long whilehered keeps a raw position on disk (`server.fix-retention`):
  /// older journalled fixes are deleted and compacted out of every file.
  public var fixRetention: TimeInterval = 86_400
  public var serverKeyFile = ""
  /// Which registry entries whilehered's own ports are (`ProviderRegistry`).
  public var serverHTTP = "microhttpd"
  public var serverHasher = "argon2id"
  public var serverSigner = "sodium"
  public var mqttClient = "mosquitto"
  public var gpsdSource = "gpsd"
  /// The map page (`/app/`): an XYZ tile URL template and its attribution
  /// ("" draws the bundled offline basemap, and nothing leaves the page
  /// for tiles), and where Leaflet's files are.
  public var webTiles = ""
  public var webAttribution = ""
  public var webLeaflet = "/usr/share/javascript/leaflet"
  /// Run as one of a cluster's workers (`cluster.nats`, "" = alone): phone
  /// reports go through a partitioned queue on these NATS servers
  /// (`nats://HOST:4222[,…][;stream=S][;replicas=N]`), and this process
  /// works the partitions its leases give it (Docs/Cluster.md).
  public var clusterNATS = ""
  public var clusterPartitions = 64
  /// This worker's id ("" = the host name and process id).
  public var clusterWorker = ""
  /// Seconds a worker's lease on a partition lasts unrenewed.
  public var clusterLease = 15
  /// Seconds a person this worker opened for its API (or an answer link),
  /// whose partition another worker holds, stays open unused.
  public var clusterIdle = 600
  /// The MQTT broker OwnTracks phones publish to (empty host: no MQTT).
  public var mqttHost = ""
  public var mqttPort = 1883
  public var mqttUser = ""
  public var mqttPassword = ""
  public var mqttClientID = "whilehered"
  public var mqttCAFile = ""
  public var mqttCertFile = ""
  public var mqttKeyFile = ""
  /// A GPS on this machine through gpsd (empty host: none), and whose it is.
  public var gpsdHost = ""
  public var gpsdPort = 2947
  public var gpsdPerson = ""
  /// Where usage events go once the person allows it (`jsonl:PATH`,
  /// `http:URL`); none by default. The daemon records only with
  /// `analytics.daemon` "on" (its operator's consent), default "off".
  public var analyticsSinks: [String] = []
  public var analyticsDaemon = false
  /// Where `whilehere sync` meets other replicas (`folder:PATH`, `server:URL`).
  public var sync: [String] = []
  /// Notification sinks every reminder goes to (`console`, `jsonl:PATH`, …).
  public var notify: [String] = []
  /// The people the daemon serves, by name.
  public var people: [String: PersonSettings] = [:]
  /// Key → "profile cli", "config file PATH", "environment WHILEHERE_STORE", "flag --store".
  public var sources: [String: String] = [:]

  /// The keys a config file may hold (dots are nesting), each with its
  /// environment variable. Docs/Configuration.md lists the same.
  public static let keys: [(key: String, environment: String)] = [
    ("store", "WHILEHERE_STORE"),
    ("clock", "WHILEHERE_CLOCK"),
    ("ids", "WHILEHERE_IDS"),
    ("places", "WHILEHERE_PLACES"),
    ("keywords", "WHILEHERE_KEYWORDS"),
    ("radius.min", "WHILEHERE_RADIUS_MIN"),
    ("radius.max", "WHILEHERE_RADIUS_MAX"),
    ("radius.default", "WHILEHERE_RADIUS_DEFAULT"),
    ("server.listen", "WHILEHERE_SERVER_LISTEN"),
    ("server.url", "WHILEHERE_SERVER_URL"),
    ("server.max-body", "WHILEHERE_SERVER_MAX_BODY"),
    ("server.timeout", "WHILEHERE_SERVER_TIMEOUT"),
    ("server.per-address", "WHILEHERE_SERVER_PER_ADDRESS"),
    ("server.header-timeout", "WHILEHERE_SERVER_HEADER_TIMEOUT"),
    ("server.min-body-rate", "WHILEHERE_SERVER_MIN_BODY_RATE"),
    ("server.threads", "WHILEHERE_SERVER_THREADS"),
    ("server.key-file", "WHILEHERE_SERVER_KEY_FILE"),
    ("server.fix-retention", "WHILEHERE_SERVER_FIX_RETENTION"),
    ("server.http", "WHILEHERE_SERVER_HTTP"),
    ("server.hasher", "WHILEHERE_SERVER_HASHER"),
    ("server.signer", "WHILEHERE_SERVER_SIGNER"),
    ("notify", "WHILEHERE_NOTIFY"),
    ("sync", "WHILEHERE_SYNC"),
    ("analytics.sink", "WHILEHERE_ANALYTICS_SINK"),
    ("analytics.daemon", "WHILEHERE_ANALYTICS_DAEMON"),
    ("web.tiles", "WHILEHERE_WEB_TILES"),
    ("web.attribution", "WHILEHERE_WEB_ATTRIBUTION"),
    ("web.leaflet", "WHILEHERE_WEB_LEAFLET"),
    ("mqtt.host", "WHILEHERE_MQTT_HOST"),
    ("mqtt.port", "WHILEHERE_MQTT_PORT"),
    ("mqtt.user", "WHILEHERE_MQTT_USER"),
    ("mqtt.password", "WHILEHERE_MQTT_PASSWORD"),
    ("mqtt.client-id", "WHILEHERE_MQTT_CLIENT_ID"),
    ("mqtt.ca-file", "WHILEHERE_MQTT_CA_FILE"),
    ("mqtt.cert-file", "WHILEHERE_MQTT_CERT_FILE"),
    ("mqtt.key-file", "WHILEHERE_MQTT_KEY_FILE"),
    ("mqtt.client", "WHILEHERE_MQTT_CLIENT"),
    ("cluster.nats", "WHILEHERE_CLUSTER_NATS"),
    ("cluster.partitions", "WHILEHERE_CLUSTER_PARTITIONS"),
    ("cluster.worker", "WHILEHERE_CLUSTER_WORKER"),
    ("cluster.lease", "WHILEHERE_CLUSTER_LEASE"),
    ("cluster.idle", "WHILEHERE_CLUSTER_IDLE"),
    ("gpsd.host", "WHILEHERE_GPSD_HOST"),
    ("gpsd.port", "WHILEHERE_GPSD_PORT"),
    ("gpsd.person", "WHILEHERE_GPSD_PERSON"),
    ("gpsd.source", "WHILEHERE_GPSD_SOURCE"),
  ]

  mutating func set(_ key: String, _ value: String, source: String) throws {
    switch key {
    case "store": store = value
    case "clock": clock = value
    case "ids": ids = value
    case "places": places = value
    case "keywords": keywords = value
    case "radius.min": radiusMinimum = try Self.meters(value, key: key, source: source)
    case "radius.max": radiusMaximum = try Self.meters(value, key: key, source: source)
    case "radius.default": radiusDefault = try Self.meters(value, key: key, source: source)
    case "server.listen":
      guard Self.listenAddress(value) != nil else {
        throw ConfigError.invalidValue(source: source, key: key, value: value, allowed: "IPv4-ADDRESS:PORT such as 127.0.0.1:8083")
      }
      serverListen = value
    case "server.url":
      guard value.isEmpty || value.hasPrefix("http://") || value.hasPrefix("https://") else {
        throw ConfigError.invalidValue(source: source, key: key, value: value, allowed: "an http(s) URL such as https://wh.example.org")
      }
      serverURL = value.hasSuffix("/") ? String(value.dropLast()) : value
    case "server.max-body": serverMaxBody = try Self.whole(value, key: key, source: source, in: 1024...16_777_216)
    case "server.timeout": serverTimeout = try Self.whole(value, key: key, source: source, in: 1...3600)
    case "server.per-address": serverPerAddress = try Self.whole(value, key: key, source: source, in: 0...100_000)
    case "server.header-timeout": serverHeaderTimeout = try Self.whole(value, key: key, source: source, in: 1...3600)
    case "server.min-body-rate": serverMinBodyRate = try Self.whole(value, key: key, source: source, in: 1...1_000_000_000)
    case "server.threads": serverThreads = try Self.whole(value, key: key, source: source, in: 0...256)
    case "server.fix-retention":
      do {
        fixRetention = try DurationText.parse(value)
      } catch {
        throw ConfigError.invalidValue(source: source, key: key, value: value, allowed: "a duration such as 1d, 12h or 30m (at most 366d)")
      }
    case "server.key-file": serverKeyFile = value
    case "server.http": serverHTTP = value
    case "server.hasher": serverHasher = value
    case "server.signer": serverSigner = value
    case "mqtt.client": mqttClient = value
    case "gpsd.source": gpsdSource = value
    case "web.tiles":
      guard value.isEmpty || ((value.hasPrefix("https://") || value.hasPrefix("http://")) && ["{z}", "{x}", "{y}"].allSatisfy(value.contains)) else {
        throw ConfigError.invalidValue(source: source, key: key, value: value, allowed: "\"\" or an XYZ URL such as https://tile.example.org/{z}/{x}/{y}.png")
      }
      webTiles = value
    case "web.attribution": webAttribution = value
    case "web.leaflet": webLeaflet = value
    case "mqtt.host": mqttHost = value
    case "mqtt.port": mqttPort = try Self.whole(value, key: key, source: source, in: 1...65535)
    case "mqtt.user": mqttUser = value
    case "mqtt.password": mqttPassword = value
    case "mqtt.client-id": mqttClientID = value
    case "mqtt.ca-file": mqttCAFile = value
    case "mqtt.cert-file": mqttCertFile = value
    case "mqtt.key-file": mqttKeyFile = value
    case "cluster.nats":
      guard value.isEmpty || value.hasPrefix("nats://") || value.hasPrefix("tls://") else {
        throw ConfigError.invalidValue(source: source, key: key, value: value, allowed: "\"\" or nats://HOST:PORT[,nats://…][;stream=NAME][;replicas=N]")
      }
      clusterNATS = value
    case "cluster.partitions": clusterPartitions = try Self.whole(value, key: key, source: source, in: 1...4096)
    case "cluster.worker":
      guard value.isEmpty || (value.utf8.count <= 64 && value.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }) else {
        throw ConfigError.invalidValue(source: source, key: key, value: value, allowed: "1-64 letters, digits, - or _")
      }
      clusterWorker = value
    case "cluster.lease": clusterLease = try Self.whole(value, key: key, source: source, in: 3...3600)
    case "cluster.idle": clusterIdle = try Self.whole(value, key: key, source: source, in: 10...86_400)
    case "gpsd.host": gpsdHost = value
    case "gpsd.port": gpsdPort = try Self.whole(value, key: key, source: source, in: 1...65535)
    case "gpsd.person": gpsdPerson = value
    case "analytics.sink": analyticsSinks = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    case "analytics.daemon":
      guard value == "on" || value == "off" else {
        throw ConfigError.invalidValue(source: source, key: key, value: value, allowed: "\"on\" or \"off\"")
      }
      analyticsDaemon = value == "on"
    case "sync": sync = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    case "notify": notify = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    default:
      throw ConfigError.unknownKey(source: source, key: key, known: Self.keys.map(\.key))
    }
    sources[key] = source
  }

  /// `127.0.0.1:8083` → its parts.
  public static func listenAddress(_ text: String) -> (address: String, port: Int)? {
    guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
    let address = String(text[..<colon])
    let parts = address.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return nil }
    return (address, port)
  }

  static func whole(_ text: String, key: String, source: String, in range: ClosedRange<Int>) throws -> Int {
    guard let value = Int(text) ?? Double(text).flatMap({ $0 == $0.rounded() ? Int(exactly: $0) : nil }), range.contains(value) else {
      throw ConfigError.invalidValue(source: source, key: key, value: text, allowed: "a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }

  static func meters(_ text: String, key: String, source: String) throws -> Double {
    guard let value = Double(text), value.isFinite, value > 0 else {
      throw ConfigError.invalidValue(source: source, key: key, value: text, allowed: "a positive number of metres")
    }
    return value
  }

  func validate() throws {
    guard radiusMinimum <= radiusDefault, radiusDefault <= radiusMaximum else {
      throw ConfigError.invalidValue(
        source: sources["radius.default"] ?? sources["radius.min"] ?? "configuration", key: "radius",
        value: "min \(radiusMinimum), default \(radiusDefault), max \(radiusMaximum)",
        allowed: "min ≤ default ≤ max")
    }
  }
}

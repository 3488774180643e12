import Domain
import Foundation
import Geofencing

/// The OwnTracks app on a simulated phone, as the booklet and the apps'
/// sources describe it: its monitoring modes (quiet, manual, significant,
/// move), waypoints installed as the OS's regions, location and transition
/// messages, and the commands it obeys when its user allowed them. It
/// speaks JSON in both directions with its own encoder, independent of the
/// daemon's codec, so a mistake in one is not mirrored in the other.
public final class OwnTracksApp {
  public enum Platform: String, Sendable {
    case iOS = "ios"
    case android
  }

  public enum Transport: String, Sendable {
    case http
    case mqtt
  }

  /// One message the app sends; over MQTT it goes to the device topic plus `topicSuffix`.
  public struct Message: Sendable {
    public let body: Data
    public let topicSuffix: String
    public let kind: Kind
    /// A transition's crossing, as the OS reported it to the app (the
    /// waypoint's description is the plan's region id), for `--explain`.
    public var crossing: RegionEvent? = nil
  }

  /// Why the app sent a message, for `bench detection --explain`. Of
  /// several sent in one second the greatest is named: a crossing before
  /// an asked-for report before the app's routine reports.
  public enum Kind: String, Comparable, Sendable {
    case ownMode = "a report in the app's own mode (significant changes)"
    case move = "a move-mode report (a session)"
    case moveCoarse = "a move-mode report without GPS (Wi-Fi or cell)"
    case asked = "a report the daemon asked for"
    case transition = "a region crossing with the OS's position"

    private var rank: Int {
      switch self {
      case .ownMode: 0
      case .move: 1
      case .moveCoarse: 2
      case .asked: 3
      case .transition: 4
      }
    }

    public static func < (a: Kind, b: Kind) -> Bool { a.rank < b.rank }
  }

  struct Waypoint {
    let rid: String?
    let tst: Int
    let description: String
    let center: Coordinate
    let radius: Double
    /// Android's `lastTransition`: nil until the first crossing, then
    /// whether the last one published was an entry.
    var inside: Bool? = nil
  }

  public let platform: Platform
  public let transport: Transport
  /// The app's "remote configuration" setting: setConfiguration, and on iOS
  /// setWaypoints/clearWaypoints, are obeyed only with it on.
  public let remoteConfiguration: Bool
  let phone: SimulatedPhone
  private let settings: WorldConfig.OwnTracksApps
  public private(set) var monitoring: Int
  private var moveInterval: Double
  private var moveDisplacement: Double
  private var lastPublished: (point: Coordinate, at: Date)?
  /// By the id the OS region was installed under.
  private var waypoints: [String: Waypoint] = [:]
  private var reportWanted = false
  private var connectedUntil = Date.distantPast
  /// MQTT commands the broker holds until an iOS app in the background wakes.
  private var held: [Data] = []
  /// What the app did, by kind (messages sent, commands obeyed or refused).
  public private(set) var counts: [String: Int] = [:]
  /// What CMMotionActivity says while the person moves (the trip's mode).
  public var movingActivity = "walking"
  /// The activity the app holds (still or not): the motion history's,
  /// delivered to the app while it runs (`WorldConfig.OwnTracksApps.iosStaleActivityAtWake`).
  private var heldStill = false
  /// Where the Wi-Fi networks the phone knows are (home, work).
  public var knownNetworks: [Coordinate] = []
  /// The BSSID of the network the phone is joined to this second, if any.
  private var joined: String?
  /// Android's "fused region detection" (on by default): each location it
  /// publishes is checked against the waypoints (inside: within radius +
  /// accuracy) and a changed one published as a transition, trigger "l".
  private var fusedRegionDetection: Bool
  /// What this second's own locations were, for fused region detection.
  private var published: [(point: Coordinate, accuracy: Double)] = []

  /// `monitoring` is the person's own mode (significant by default).
  public init(
    platform: Platform, transport: Transport, remoteConfiguration: Bool, world: WorldConfig, duration: Int, random: SimRandom,
    monitoring: Int = PhoneMonitoring.significant
  ) {
    self.platform = platform
    self.transport = transport
    self.remoteConfiguration = remoteConfiguration
    settings = world.ownTracks
    self.monitoring = monitoring
    fusedRegionDetection = platform == .android && world.ownTracks.androidFusedRegionDetection
    moveInterval = world.ownTracks.moveInterval
    moveDisplacement = world.ownTracks.moveDisplacement
    var phoneWorld = world
    if platform == .android {
      // The fused provider's balanced-power updates stand in for iOS's significant change.
      phoneWorld.significantChange = .androidBalancedPower(interval: world.ownTracks.androidInterval, displacement: world.ownTracks.androidDisplacement)
    }
    phone = SimulatedPhone(
      world: phoneWorld, duration: duration, random: random, regions: platform == .android ? world.androidGeofencing : world.regionMonitoring)
    // The app keeps the service on; it reports from it in significant mode only.
    phone.location.startSignificantChanges()
  }

  /// Whether a command published now reaches the app now: Android keeps its
  /// connection in a foreground service; iOS in the background is connected
  /// only while woken, or while move mode keeps it running.
  public func connected(at now: Date) -> Bool {
    platform == .android || monitoring == PhoneMonitoring.move || now < connectedUntil
  }

  /// One second with the device at `position`: the messages the app sends now.
  public func step(position: Coordinate, at now: Date, battery: Int) -> [Message] {
    _ = phone.motion.step(second: Int(now.timeIntervalSince1970), position: position)
    // A suspended app gets the latest activity when it resumes; with the
    // stale setting, what it sends in the second it wakes still carries
    // the activity from before it was suspended.
    if !settings.iosStaleActivityAtWake || monitoring == PhoneMonitoring.move || now < connectedUntil { heldStill = phone.motion.isStill }
    joined = knownNetworks.indices.first { position.distance(to: knownNetworks[$0]) <= settings.knownWifiRange }.map(Self.bssid)
    var out: [Message] = []
    if monitoring == PhoneMonitoring.significant, let fix = phone.location.significantChange(position: position, at: now) {
      out.append(location(fix.point, accuracy: fix.accuracy, at: now, battery: battery, trigger: nil, kind: .ownMode))
    }
    let wantsGPS = monitoring == PhoneMonitoring.move
    if wantsGPS != phone.location.isPreciseOn {
      if wantsGPS { phone.location.startPreciseUpdates() } else { phone.location.stopPreciseUpdates() }
    }
    if let fix = phone.location.preciseFix(position: position, at: now) {
      if reportWanted {
        reportWanted = false
        out.append(location(fix.point, accuracy: fix.accuracy, at: now, battery: battery, trigger: "r", kind: .asked))
      } else if wantsGPS, moveReportDue(fix.point, at: now) {
        out.append(location(fix.point, accuracy: fix.accuracy, at: now, battery: battery, trigger: nil, kind: .move))
      }
    } else if wantsGPS, lastPublished.map({ now.timeIntervalSince($0.at) >= moveInterval }) ?? true {
      // No GPS fix (yet, or the start failed): both platforms' location
      // services deliver their Wi-Fi or cell position instead.
      let seen = phone.coarse.sample(position, at: now)
      out.append(location(seen.point, accuracy: seen.accuracy, at: now, battery: battery, trigger: nil, kind: .moveCoarse))
    }
    out += fusedTransitions(at: now)
    for event in phone.monitor.step(position: position, at: now) where event.kind == .entered || event.kind == .exited {
      guard let waypoint = waypoints[event.id] else { continue }
      // Android publishes a geofence event only if it changes the waypoint's
      // last transition, and never a first one that is an exit.
      if platform == .android {
        let entered = event.kind == .entered
        guard waypoint.inside != entered, waypoint.inside != nil || entered else {
          waypoints[event.id]?.inside = entered
          continue
        }
        waypoints[event.id]?.inside = entered
      }
      // The OS reports where it believes the phone is, not where it is.
      let seen = phone.coarse.sample(position, at: now)
      out.append(transition(waypoint, entered: event.kind == .entered, point: seen.point, accuracy: seen.accuracy, at: now))
      // Both apps follow a transition with a location of the same position,
      // trigger "c" (iOS: OwnTracksAppDelegate regionEvent; Android:
      // LocationProcessor.onWaypointTransition for geofence events).
      out.append(location(seen.point, accuracy: seen.accuracy, at: now, battery: battery, trigger: "c", kind: .transition))
    }
    if !out.isEmpty {
      connectedUntil = max(connectedUntil, now.addingTimeInterval(settings.iosConnectedAfterWake))
      let waiting = held
      held = []
      for command in waiting { obey(command) }
    }
    return out
  }

  /// Android's fused region detection over the locations published this
  /// second (LocationProcessor.publishLocationMessage): a waypoint whose
  /// radius plus the location's accuracy now holds (or no longer holds)
  /// the location, unlike its last transition, is published as crossed.
  private func fusedTransitions(at now: Date) -> [Message] {
    defer { published = [] }
    guard fusedRegionDetection else { return [] }
    var out: [Message] = []
    for (point, accuracy) in published {
      for id in waypoints.keys.sorted() {
        guard let waypoint = waypoints[id] else { continue }
        let entered = point.distance(to: waypoint.center) <= waypoint.radius + accuracy
        guard waypoint.inside != entered else { continue }
        waypoints[id]?.inside = entered
        // A first transition that is an exit is recorded, not published.
        if waypoint.inside == nil && !entered { continue }
        out.append(transition(waypoint, entered: entered, point: point, accuracy: accuracy, at: now, trigger: "l"))
      }
    }
    return out
  }

  /// iOS: moved `locatorDisplacement` or `locatorInterval` passed, whichever
  /// first; Android's move mode: every `moveModeLocatorInterval`.
  private func moveReportDue(_ point: Coordinate, at now: Date) -> Bool {
    guard let last = lastPublished else { return true }
    if now.timeIntervalSince(last.at) >= moveInterval { return true }
    return platform == .iOS && point.distance(to: last.point) >= moveDisplacement
  }

  /// A command from the server: the answer to a POST (a JSON array) or one
  /// message on the `cmd` topic, which waits while an iOS app sleeps.
  public func receive(_ data: Data, at now: Date) {
    if transport == .mqtt, !connected(at: now) {
      held.append(data)
      return
    }
    obey(data)
  }

  private func obey(_ data: Data) {
    guard let value = try? JSONSerialization.jsonObject(with: data) else {
      counts["unreadable answer", default: 0] += 1
      return
    }
    let messages = (value as? [[String: Any]]) ?? ((value as? [String: Any]).map { [$0] } ?? [])
    for message in messages where message["_type"] as? String == "cmd" {
      let action = message["action"] as? String ?? ""
      switch action {
      case "setWaypoints", "clearWaypoints":
        guard platform == .android || remoteConfiguration else {
          counts["refused \(action)", default: 0] += 1
          continue
        }
        if action == "clearWaypoints" {
          for id in waypoints.keys { phone.monitor.stopMonitoring(id) }
          waypoints = [:]
        } else {
          install((message["waypoints"] as? [String: Any])?["waypoints"] as? [[String: Any]] ?? [])
        }
      case "reportLocation":
        reportWanted = true
        if !phone.location.isPreciseOn { phone.location.requestSingleFix() }
      case "setConfiguration":
        guard remoteConfiguration, let configuration = message["configuration"] as? [String: Any] else {
          counts["refused \(action)", default: 0] += 1
          continue
        }
        configure(configuration)
      default:
        counts["ignored \(action)", default: 0] += 1
        continue
      }
      counts["obeyed \(action)", default: 0] += 1
    }
  }

  private func install(_ list: [[String: Any]]) {
    for entry in list {
      guard let latitude = entry["lat"] as? Double, let longitude = entry["lon"] as? Double, let radius = (entry["rad"] as? NSNumber)?.doubleValue,
        let center = try? Coordinate(latitude: latitude, longitude: longitude)
      else {
        counts["bad waypoint", default: 0] += 1
        continue
      }
      let tst = (entry["tst"] as? NSNumber)?.intValue ?? 0
      let description = entry["desc"] as? String ?? ""
      // iOS keys a region by the rid it was given; Android by its tst.
      let rid = platform == .iOS ? entry["rid"] as? String : nil
      let id = rid ?? (platform == .iOS ? "\(description)-\(tst)" : String(tst))
      do {
        try phone.monitor.startMonitoring(PlannedRegion(id: id, kind: .approach, center: center, radius: radius, destinations: []))
        waypoints[id] = Waypoint(rid: rid, tst: tst, description: description, center: center, radius: radius)
      } catch {
        counts["region refused by the OS", default: 0] += 1
      }
    }
  }

  private func configure(_ configuration: [String: Any]) {
    if let mode = (configuration["monitoring"] as? NSNumber)?.intValue, (-1...2).contains(mode) { monitoring = mode }
    let intervalKey = platform == .iOS ? "locatorInterval" : "moveModeLocatorInterval"
    if let interval = (configuration[intervalKey] as? NSNumber)?.doubleValue, interval > 0 { moveInterval = interval }
    if let displacement = (configuration["locatorDisplacement"] as? NSNumber)?.doubleValue, displacement >= 0 { moveDisplacement = displacement }
    if platform == .android, let fused = configuration["fusedRegionDetection"] as? Bool { fusedRegionDetection = fused }
  }

  private func location(_ point: Coordinate, accuracy: Double, at now: Date, battery: Int, trigger: String?, kind: Kind) -> Message {
    lastPublished = (point, now)
    if trigger != "c" { published.append((point, accuracy)) }
    var body: [String: Any] = [
      "_type": "location", "lat": point.latitude, "lon": point.longitude, "acc": Int(accuracy.rounded()), "tst": Int(now.timeIntervalSince1970),
      "batt": battery, "bs": 1, "tid": "sm", "conn": "w",
    ]
    // Both apps' extended data (on by default) carries the mode (Android's DefaultsProvider, iOS's presets).
    body["m"] = monitoring
    if platform == .iOS, settings.iosExtendedData { body["motionactivities"] = [heldStill ? "stationary" : movingActivity] }
    // Both carry the network, iOS in lower case (OwnTracking.m), Android as BSSID/SSID (MessageLocation).
    if platform == .iOS ? settings.iosExtendedData : settings.androidExtendedData {
      body["conn"] = joined == nil ? "m" : "w"
      if let joined {
        body[platform == .iOS ? "bssid" : "BSSID"] = joined
        body[platform == .iOS ? "ssid" : "SSID"] = "known-\(joined.suffix(2))"
      }
    }
    if let trigger { body["t"] = trigger }
    counts["sent location", default: 0] += 1
    return Message(body: Self.json(body), topicSuffix: "", kind: kind)
  }

  private func transition(_ waypoint: Waypoint, entered: Bool, point: Coordinate, accuracy: Double, at now: Date, trigger: String = "c") -> Message {
    var body: [String: Any] = [
      "_type": "transition", "event": entered ? "enter" : "leave", "lat": point.latitude, "lon": point.longitude, "acc": Int(accuracy.rounded()),
      "tst": Int(now.timeIntervalSince1970), "wtst": waypoint.tst, "desc": waypoint.description, "tid": "sm", "t": trigger,
    ]
    if let rid = waypoint.rid { body["rid"] = rid }
    counts["sent transition", default: 0] += 1
    return Message(
      body: Self.json(body), topicSuffix: "/event", kind: .transition,
      crossing: RegionEvent(id: waypoint.description, kind: entered ? .entered : .exited, at: now))
  }

  /// A made-up access point address for the `index`th known network.
  static func bssid(_ index: Int) -> String { String(format: "02:00:00:00:00:%02x", index + 1) }

  static func json(_ object: [String: Any]) -> Data {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
  }

  /// GPS time, wakes, the most regions installed at once and OS refusals.
  public func record(into run: inout StrategyRun) {
    phone.record(into: &run)
    for (kind, count) in counts { run.notes["app: \(kind)", default: 0] += count }
  }

  /// The battery percent the app reports, from what the phone used so far.
  public func battery(world: WorldConfig) -> Int {
    let used = phone.energyWh(world) / world.power.batteryWh
    return max(0, min(100, Int(((world.power.startBattery - used) * 100).rounded())))
  }
}

import Domain
import Foundation
import Simulation
import Testing

/// The simulated OwnTracks app's messages, as the current apps send them.
@Suite struct OwnTracksAppTests {
  static let shop = OwnTracksPathTests.shop
  static let start = Date(timeIntervalSince1970: 1_779_958_800)

  /// Ten minutes still 600 m north, a walk in to the shop, ten minutes
  /// inside; every message the app sent, with the second it was sent.
  /// `askAt`: the second the server asks for a report (reportLocation).
  func messages(
    _ platform: OwnTracksApp.Platform, world: WorldConfig = .calmPhone, askAt: Int? = nil, from distance: Double = 600,
    knownNetworks: [Coordinate] = []
  ) -> [(second: Int, body: [String: Any])] {
    var positions = Array(repeating: OwnTracksPathTests.north(distance), count: 600)
    positions += stride(from: distance, to: 0, by: -1.4).map(OwnTracksPathTests.north)
    positions += Array(repeating: OwnTracksPathTests.north(5), count: 600)
    let app = OwnTracksApp(platform: platform, transport: .http, remoteConfiguration: true, world: world, duration: positions.count, random: SimRandom(seed: 3))
    app.knownNetworks = knownNetworks
    let waypoints: [String: Any] = [
      "_type": "cmd", "action": "setWaypoints",
      "waypoints": ["_type": "waypoints", "waypoints": [["_type": "waypoint", "desc": "shop", "lat": Self.shop.latitude, "lon": Self.shop.longitude, "rad": 100, "tst": 1, "rid": "r1"]]],
    ]
    app.receive(try! JSONSerialization.data(withJSONObject: [waypoints]), at: Self.start)
    var sent: [(Int, [String: Any])] = []
    for (second, position) in positions.enumerated() {
      if second == askAt { app.receive(Data(#"[{"_type":"cmd","action":"reportLocation"}]"#.utf8), at: Self.start.addingTimeInterval(Double(second))) }
      for message in app.step(position: position, at: Self.start.addingTimeInterval(Double(second)), battery: 80) {
        sent.append((second, try! JSONSerialization.jsonObject(with: message.body) as! [String: Any]))
      }
    }
    return sent
  }

  /// OwnTracks iOS (26.3, OwnTracksAppDelegate regionEvent) publishes a
  /// location with trigger "c" right after each transition, and its
  /// extended data (on by default) carries the motion coprocessor's activity.
  @Test func iOSFollowsATransitionWithALocationThatSaysHowThePhoneMoves() throws {
    let sent = messages(.iOS, askAt: 400)
    let index = try #require(sent.firstIndex { $0.body["_type"] as? String == "transition" && $0.body["event"] as? String == "enter" })
    let transition = sent[index]
    let after = try #require(sent.dropFirst(index + 1).first)
    #expect(after.second == transition.second)
    #expect(after.body["_type"] as? String == "location" && after.body["t"] as? String == "c")
    #expect(after.body["lat"] as? Double == transition.body["lat"] as? Double && after.body["lon"] as? Double == transition.body["lon"] as? Double)
    let locations = sent.filter { $0.body["_type"] as? String == "location" }
    for location in locations {
      let activities = location.body["motionactivities"] as? [String]
      #expect(activities == ["stationary"] || activities == ["walking"], "\(location.body)")
    }
    // Asked for a report after 400 s still (the history says so after two minutes): stationary.
    let asked = try #require(locations.first { $0.body["t"] as? String == "r" })
    #expect(asked.second >= 400 && asked.second < 600)
    #expect(asked.body["motionactivities"] as? [String] == ["stationary"])
    // The entry comes while the person still walks in.
    #expect(after.body["motionactivities"] as? [String] == ["walking"], "\(after.body)")
  }

  @Test func withoutExtendedDataOrOnAndroidTheAppSaysNothingOfMotion() {
    var world = WorldConfig.calmPhone
    world.ownTracks.iosExtendedData = false
    for (platform, world) in [(OwnTracksApp.Platform.iOS, world), (.android, .calmPhone)] {
      let sent = messages(platform, world: world)
      #expect(sent.contains { $0.body["_type"] as? String == "transition" }, "\(platform)")
      #expect(sent.allSatisfy { $0.body["motionactivities"] == nil }, "\(platform)")
    }
  }

  /// OwnTracks Android (LocationProcessor.onWaypointTransition) also
  /// follows a geofence transition with a location, trigger "c".
  @Test func androidFollowsATransitionWithALocationToo() throws {
    // The geofence's own events (fused region detection, below, off).
    var world = WorldConfig.calmPhone
    world.ownTracks.androidFusedRegionDetection = false
    let sent = messages(.android, world: world)
    let index = try #require(sent.firstIndex { $0.body["_type"] as? String == "transition" })
    let after = try #require(sent.dropFirst(index + 1).first)
    #expect(after.second == sent[index].second)
    #expect(after.body["_type"] as? String == "location" && after.body["t"] as? String == "c")
  }

  /// The apps' extended data names the Wi-Fi access point the phone is
  /// joined to: a known network (home) while within its reach, and `conn`
  /// "m" with no BSSID once the person walked away from it. Without
  /// extended data, neither.
  @Test func theAppsNameTheWiFiTheyAreJoinedToNearAKnownNetworkOnly() throws {
    let home = OwnTracksPathTests.north(600)
    let sent = messages(.android, askAt: 300, knownNetworks: [home]).filter { $0.body["_type"] as? String == "location" }
    let asked = try #require(sent.first { $0.body["t"] as? String == "r" })
    #expect(asked.body["BSSID"] as? String == "02:00:00:00:00:01" && asked.body["conn"] as? String == "w", "\(asked.body)")
    let atTheShop = try #require(sent.last)
    #expect(atTheShop.body["BSSID"] == nil && atTheShop.body["conn"] as? String == "m", "\(atTheShop.body)")
    var plain = WorldConfig.calmPhone
    plain.ownTracks.androidExtendedData = false
    let without = messages(.android, world: plain, askAt: 300, knownNetworks: [home])
    #expect(without.allSatisfy { $0.body["BSSID"] == nil }, "extended data off")
    let iOS = messages(.iOS, askAt: 300, knownNetworks: [home]).filter { $0.body["_type"] as? String == "location" }
    #expect(iOS.first { $0.body["t"] as? String == "r" }?.body["bssid"] as? String == "02:00:00:00:00:01", "iOS names it in lower case")
  }

  /// Core Motion hands a resumed app its latest activity, in no set order
  /// with the region event: with `iosStaleActivityAtWake` the wake's
  /// messages carry the activity from before the app was suspended. A walk
  /// of 300 m (no significant change) after the app last ran while still.
  @Test func aStaleActivityAtAWakeIsTheOneFromBeforeTheSuspension() throws {
    var stale = WorldConfig.calmPhone
    stale.ownTracks.iosStaleActivityAtWake = true
    for (world, expected) in [(WorldConfig.calmPhone, "walking"), (stale, "stationary")] {
      let sent = messages(.iOS, world: world, askAt: 400, from: 300)
      let entry = try #require(sent.firstIndex { $0.body["_type"] as? String == "transition" && $0.body["event"] as? String == "enter" })
      #expect(!sent[..<entry].contains { $0.second > 420 }, "the app slept through the walk")
      let located = try #require(sent.dropFirst(entry + 1).first)
      #expect(located.body["t"] as? String == "c")
      #expect(located.body["motionactivities"] as? [String] == [expected])
    }
  }

  /// OwnTracks Android's fused region detection (on by default) checks
  /// each location it publishes against its waypoints with radius +
  /// accuracy and publishes a change as a transition with trigger "l"; a
  /// geofence event that repeats it is not published again. Off, only the
  /// geofence's own event is sent.
  @Test func androidCrossesWaypointsFromItsOwnLocationsToo() throws {
    // Asked for a report while already inside, before the geofence's alert (two minutes in).
    let fused = messages(.android, askAt: 1060).filter { $0.body["_type"] as? String == "transition" }
    let entries = fused.filter { $0.body["event"] as? String == "enter" }
    #expect(entries.count == 1, "one entry, whichever noticed first: \(fused.map(\.body))")
    #expect(entries.first?.body["t"] as? String == "l", "the report inside noticed it first: \(fused.map(\.body))")
    var plain = WorldConfig.calmPhone
    plain.ownTracks.androidFusedRegionDetection = false
    let geofence = messages(.android, world: plain, askAt: 400).filter { $0.body["_type"] as? String == "transition" }
    #expect(!geofence.isEmpty && geofence.allSatisfy { $0.body["t"] as? String == "c" }, "\(geofence.map(\.body))")
    #expect(messages(.iOS, askAt: 400).filter { $0.body["t"] as? String == "l" }.isEmpty, "iOS has no such setting")
  }
}

import DaemonSimulation
import Domain
import Foundation
import Simulation
import Testing

/// The deployed path end to end: a simulated OwnTracks app talking JSON to
/// an in-process whilehered (its real routing, codec, Person and engine)
/// under a simulated clock.
@Suite struct OwnTracksPathTests {
  static let shop = try! Coordinate(latitude: 60.1699, longitude: 24.9384)
  static func north(_ meters: Double) -> Coordinate {
    try! Coordinate(latitude: shop.latitude + meters / 111_195, longitude: shop.longitude)
  }

  /// Half an hour still 3 km north, a walk at 1.4 m/s to the shop, five
  /// minutes inside, a walk away, half an hour still.
  static let walk: Trip = {
    var positions = Array(repeating: north(3000), count: 1800)
    positions += stride(from: 3000.0, to: 0, by: -1.4).map(north)
    positions += Array(repeating: north(10), count: 300)
    positions += stride(from: 0.0, to: 1500, by: 1.4).map(north)
    positions += Array(repeating: north(1500), count: 1800)
    return Trip(mode: .walking, start: Date(timeIntervalSince1970: 1_779_958_800), positions: positions, plannedStops: [])
  }()

  /// The shop and a few places elsewhere, so the plan has a choice.
  static let places = PlaceSet(
    places: [PlaceSet.Place(id: 0, name: "shop", center: shop, radius: 100, reachable: true)]
      + (1...6).map { index in PlaceSet.Place(id: index, name: "elsewhere \(index)", center: north(-2000 - Double(index) * 700), radius: 150, reachable: true) })

  func run(_ strategy: OwnTracksStrategy, world: WorldConfig = .calmPhone) -> (StrategyRun, mode: Int, counts: [String: Int]) {
    var mode = -9
    var counts: [String: Int] = [:]
    let result = strategy.run(trip: Self.walk, world: world, places: Self.places, random: SimRandom(seed: 4)) { app in
      mode = app.monitoring
      counts = app.counts
    }
    return (result, mode, counts)
  }

  @Test func anIOSPhoneOverHTTPGetsASessionThroughSetConfigurationArrivesAndTheReminderFiresOnce() {
    let (result, mode, counts) = run(.iOSHTTP)
    #expect(result.notes.keys.filter { $0.hasPrefix("the daemon failed") }.isEmpty, "\(result.notes)")
    #expect((result.notes["session started"] ?? 0) >= 1, "\(result.notes)")
    // Switched to move mode for the session and back to its own mode after it.
    #expect((counts["obeyed setConfiguration"] ?? 0) >= 2, "\(counts)")
    #expect(mode == 1, "the app ends the day in its own (significant) mode")
    let shopFires = result.fires.filter { $0.place == 0 }
    #expect(shopFires.count == 1, "\(result.fires)")
    let arrived = Self.walk.positions.firstIndex { $0.distance(to: Self.shop) <= 100 } ?? 0
    if let fire = shopFires.first {
      #expect(fire.second >= arrived - 30 && fire.second <= arrived + 60, "fired at \(fire.second), inside from \(arrived)")
    }
    #expect(result.fires.allSatisfy { $0.place == 0 }, "nothing else fires")
    #expect(result.peakRegions <= 20)
  }

  /// A phone that only cell towers place (no Wi-Fi positioning): every
  /// position the app sends on its own is 1,000 m accurate, too vague to
  /// plan from. The daemon asks for one report, plans from it, and the
  /// walk to the shop fires once (before, no regions were ever sent).
  @Test func anIOSPhoneThatOnlyCellTowersPlaceGetsItsRegionsAndFiresOnce() {
    var world = WorldConfig.calmPhone
    world.coarsePosition.wifiShare = 0
    let (result, _, counts) = run(.iOSHTTP, world: world)
    #expect((counts["obeyed reportLocation"] ?? 0) >= 1, "\(counts)")
    #expect((counts["obeyed setWaypoints"] ?? 0) >= 1, "\(counts)")
    #expect(result.fires.filter { $0.place == 0 }.count == 1, "\(result.fires) \(result.notes)")
    #expect(result.fires.allSatisfy { $0.place == 0 }, "nothing else fires")
  }

  @Test func aDeviceNotListedForRemoteConfigurationIsNeverReconfiguredAndStillFires() {
    var strategy = OwnTracksStrategy.iOSHTTP
    strategy.lever = false
    let (result, mode, counts) = run(strategy)
    #expect(counts["obeyed setConfiguration"] == nil, "\(counts)")
    #expect(mode == 1)
    #expect(result.fires.filter { $0.place == 0 }.count == 1, "\(result.fires) \(result.notes)")
  }

  @Test func anIOSPhoneOverMQTTGetsItsCommandsWhenItWakesAndFiresOnce() {
    let (result, mode, counts) = run(.iOSMQTT)
    #expect((counts["obeyed setWaypoints"] ?? 0) >= 1, "\(counts)")
    #expect(mode == 1)
    #expect(result.fires.filter { $0.place == 0 }.count == 1, "\(result.fires) \(result.notes)")
  }

  /// `bench detection --explain` reads what the app's OS reported and
  /// what the daemon's engine did, as it does for the native phone.
  @Test func theAppsCrossingsAndTheEnginesEventsAreObserved() {
    var entries: [String] = []
    var planned: [Set<String>] = []
    let result = OwnTracksStrategy.iOSHTTP.run(trip: Self.walk, world: .calmPhone, places: Self.places, random: SimRandom(seed: 4)) { _, observation in
      switch observation {
      case .region(let event) where event.kind == .entered: entries.append(event.id)
      case .engine(.planned(let plan, _, _, _)): planned.append(Set(plan.regions.map(\.id)))
      default: break
      }
    }
    #expect(result.fires.contains { $0.place == 0 })
    #expect(!entries.isEmpty && !planned.isEmpty)
    #expect(entries.allSatisfy { id in planned.contains { $0.contains(id) } }, "every crossing is of a region the daemon planned: \(entries)")
  }

  @Test func anAndroidPhoneKeysItsRegionsByTimestampAndFiresOnce() {
    let (result, _, counts) = run(.androidHTTP)
    #expect((counts["sent transition"] ?? 0) >= 1, "\(counts)")
    #expect(result.fires.filter { $0.place == 0 }.count == 1, "\(result.fires) \(result.notes)")
  }
}

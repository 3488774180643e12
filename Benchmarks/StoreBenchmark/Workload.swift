import Domain
import Foundation
import Persistence

/// A deterministic collection: places scattered over the Helsinki region,
/// tasks tied to one to three of them (or to bare coordinates).
struct Workload {
  let places: Int
  let tasks: Int
  let seed: UInt64
  /// Names and titles with letters beyond ASCII ("Kauppa Äitee 61277",
  /// "Tehtävä 5000"), as Finnish lists have: folded as text, not bytes.
  var accented = false

  func placeName(_ i: Int) -> String { accented ? "Kauppa Äitee \(i)" : "Place \(i)" }
  func taskTitle(_ i: Int) -> String { accented ? "Tehtävä \(i)" : "Task \(i)" }
  /// A slip for the name of place `i` (one letter dropped, one added): found by no step but the nearest name.
  func placeSlip(_ i: Int) -> String { accented ? "Kaupa Äitee \(i)x" : "Plase \(i)x" }

  static let epoch = Date(timeIntervalSince1970: 1_780_000_000)

  func placeOperations() -> [StoreOperation] {
    var random = SplitMix64(seed: seed)
    return (0..<places).map { i in
      let coordinate = try! Coordinate(latitude: Double.random(in: 60.0...60.4, using: &random), longitude: Double.random(in: 24.5...25.3, using: &random))
      let place = Place(
        id: PlaceID(String(format: "p%07d", i)),
        personal: PersonalPlaceData(name: placeName(i), coordinate: coordinate, address: "Street \(i % 500) \(i % 40)", tags: i % 3 == 0 ? ["grocery"] : [], note: ""),
        createdAt: Self.epoch)
      return .put(.place(place))
    }
  }

  func taskOperations() -> [StoreOperation] {
    var random = SplitMix64(seed: seed &+ 1)
    return (0..<tasks).map { i in
      let count = Int.random(in: 1...3, using: &random)
      let locations = (0..<count).map { n in
        TaskLocation(
          id: LocationID("l\(n + 1)"), target: .place(PlaceID(String(format: "p%07d", Int.random(in: 0..<max(places, 1), using: &random)))),
          radius: Double(Int.random(in: 50...300, using: &random)))
      }
      let task = try! ReminderTask(id: TaskID(String(format: "t%06d", i)), title: taskTitle(i), keywords: ["k\(i % 20)"], locations: locations, createdAt: Self.epoch)
      return .put(.task(task))
    }
  }
}

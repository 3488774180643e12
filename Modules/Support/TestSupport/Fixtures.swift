import Domain
import Foundation
import Persistence

/// Small valid domain values for tests of any module.
public enum Fixtures {
  public static let epoch = Date(timeIntervalSince1970: 1_780_000_000)
  /// Helsinki railway square, a real place the tests can reason about.
  public static let helsinki = try! Coordinate(latitude: 60.1699, longitude: 24.9384)

  public static func task(_ id: String, title: String = "Buy milk", radius: Double = 150) -> ReminderTask {
    try! ReminderTask(
      id: TaskID(id), title: title,
      locations: [TaskLocation(id: LocationID("l1"), target: .coordinate(helsinki), radius: radius)],
      createdAt: epoch)
  }

  public static func place(_ id: String, name: String = "Alepa") -> Place {
    Place(id: PlaceID(id), personal: PersonalPlaceData(name: name, coordinate: helsinki), createdAt: epoch)
  }

  public static func list(_ id: String, name: String = "Groceries") -> PlaceList {
    try! PlaceList(id: ListID(id), name: name, createdAt: epoch)
  }

  public static func replica(_ name: String) -> ReplicaID { try! ReplicaID(name) }

  public static func stamp(_ millis: Int64, _ counter: UInt32 = 0, replica: String = "remote") -> HLCTimestamp {
    HLCTimestamp(wallMillis: millis, counter: counter, replica: try! ReplicaID(replica))
  }
}

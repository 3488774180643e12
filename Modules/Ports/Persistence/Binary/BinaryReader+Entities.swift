import Domain
import Foundation

/// The inverse of BinaryWriter+Entities; domain rules (valid coordinates,
/// non-empty titles) are checked again, so no invalid value gets in from disk.
extension BinaryReader {
  mutating func coordinate() throws -> Coordinate {
    try Coordinate(latitude: try double(), longitude: try double())
  }

  mutating func membership() throws -> Membership {
    Membership(list: ListID(try string()), place: PlaceID(try string()))
  }

  mutating func placeTag() throws -> PlaceTag {
    let place = PlaceID(try string())
    let name = try string()
    guard !place.rawValue.isEmpty, !place.rawValue.contains("/"), !name.isEmpty else { throw fail("a tag without a place or name") }
    return PlaceTag(place: place, name: name)
  }

  mutating func list() throws -> PlaceList {
    try PlaceList(id: ListID(try string()), name: try string(), createdAt: try date())
  }

  mutating func task() throws -> ReminderTask {
    let id = TaskID(try string())
    let title = try string()
    let notes = try string()
    let keywords = try array { try $0.string() }
    let state: TaskState
    switch try byte() {
    case 0: state = .active
    case 1: state = .snoozed(until: try date())
    case 2: state = .completed(at: try date())
    default: throw fail("unknown task state")
    }
    let locations = try array { reader -> TaskLocation in
      let id = LocationID(try reader.string())
      let target: LocationTarget
      switch try reader.byte() {
      case 0: target = .coordinate(try reader.coordinate())
      case 1: target = .place(PlaceID(try reader.string()))
      default: throw reader.fail("unknown location target")
      }
      return TaskLocation(id: id, target: target, radius: try reader.finite(), enabled: try reader.bool())
    }
    return try ReminderTask(
      id: id, title: title, notes: notes, keywords: keywords, state: state, locations: locations, createdAt: try date())
  }

  /// A task and the flags version 4 added; a flag this build does not know
  /// is refused rather than dropped.
  mutating func taskV4() throws -> ReminderTask {
    var task = try task()
    let flags = RecordCodec.TaskFlags(rawValue: try varint())
    guard RecordCodec.TaskFlags.known.isSuperset(of: flags) else { throw fail("unknown task flags \(flags.rawValue)") }
    task.onlyWhileOpen = flags.contains(.onlyWhileOpen)
    return task
  }

  /// A place and its provider's opening hours (version 4).
  mutating func placeV4() throws -> Place {
    var place = try place()
    let hours = try string()
    guard place.provider != nil else { throw fail("opening hours without a provider") }
    place.provider?.hours = hours
    return place
  }

  mutating func place() throws -> Place {
    let id = PlaceID(try string())
    let personal = PersonalPlaceData(
      name: try optional { try $0.string() }, coordinate: try optional { try $0.coordinate() },
      address: try optional { try $0.string() }, tags: try array { try $0.string() }, note: try string())
    let provider = try optional { reader in
      ProviderPlaceData(
        ref: try reader.string(), name: try reader.optional { try $0.string() }, coordinate: try reader.coordinate(),
        address: try reader.optional { try $0.string() }, category: try reader.optional { try $0.string() },
        fetchedAt: try reader.date(), expiresAt: try reader.date())
    }
    return Place(id: id, personal: personal, provider: provider, createdAt: try date())
  }
}

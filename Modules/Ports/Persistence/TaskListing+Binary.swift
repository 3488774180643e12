import Domain
import Foundation

/// The bytes a store keeps a listing as (the FileStore's sidecar, SQLite's
/// `task_listings`): a version byte, then the fields in order with the
/// record codec's primitives. A version this build does not know, or bytes
/// that do not decode, are refused: the caller then reads the records.
extension TaskListing {
  static let version: UInt8 = 1

  public var encoded: [UInt8] {
    var writer = BinaryWriter()
    writer.bytes.reserveCapacity(64 + title.utf8.count + locations.count * 64)
    writer.byte(Self.version)
    writer.string(id.rawValue)
    writer.string(title)
    switch state {
    case .active: writer.byte(0)
    case .snoozed(let until):
      writer.byte(1)
      writer.date(until)
    case .completed(let at):
      writer.byte(2)
      writer.date(at)
    }
    writer.date(createdAt)
    writer.byte(onlyWhileOpen ? 1 : 0)
    writer.array(locations) { writer, location in
      writer.string(location.id.rawValue)
      writer.optional(location.place) { $0.string($1.rawValue) }
      writer.optional(location.placeName) { $0.string($1) }
      writer.optional(location.center) { $0.coordinate($1) }
      writer.double(location.radius)
      writer.byte(location.enabled ? 1 : 0)
      writer.optional(location.hours) { $0.string($1) }
    }
    return writer.bytes
  }

  /// Decodes what `encoded` wrote; throws on anything else.
  public init(decoding bytes: UnsafeRawBufferPointer) throws {
    try self.init(try TaskListingView(bytes))
  }

  /// The listing `view` reads, its texts made strings.
  public init(_ view: TaskListingView) throws {
    var locations: [Location] = []
    locations.reserveCapacity(view.locationCount)
    try view.forEachLocation { location in
      locations.append(
        Location(
          id: LocationID(String(utf8: location.id)), place: location.place.map { PlaceID(String(utf8: $0)) },
          placeName: location.placeName.map(String.init(utf8:)), center: location.center, radius: location.radius,
          enabled: location.enabled, hours: location.hours.map(String.init(utf8:))))
    }
    self.init(
      id: TaskID(String(utf8: view.id)), title: String(utf8: view.title), state: view.state, createdAt: view.createdAt,
      onlyWhileOpen: view.onlyWhileOpen, locations: locations)
  }
}

extension String {
  /// Text a listing's view checked to be UTF-8.
  fileprivate init(utf8 bytes: UnsafeRawBufferPointer) {
    self.init(decoding: bytes, as: UTF8.self)
  }
}

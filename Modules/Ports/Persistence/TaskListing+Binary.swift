import Domain
import Foundation
import Locking

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
    var reader = BinaryReader(bytes)
    guard try reader.byte() == Self.version else { throw reader.fail("a task listing of another version") }
    let id = TaskID(try reader.string())
    let title = try reader.string()
    let state: TaskState
    switch try reader.byte() {
    case 0: state = .active
    case 1: state = .snoozed(until: try reader.date())
    case 2: state = .completed(at: try reader.date())
    default: throw reader.fail("unknown task state")
    }
    let createdAt = try reader.date()
    let onlyWhileOpen = try reader.bool()
    let locations = try reader.array { reader in
      Location(
        id: LocationID(try reader.string()), place: try reader.optional { PlaceID(try $0.string()) },
        placeName: try reader.optional { try $0.string() }, center: try reader.optional { try $0.coordinate() },
        radius: try reader.finite(), enabled: try reader.bool(), hours: try reader.optional { try $0.string() })
    }
    guard reader.isAtEnd else { throw reader.fail("bytes after a task listing") }
    self.init(id: id, title: title, state: state, createdAt: createdAt, onlyWhileOpen: onlyWhileOpen, locations: locations)
  }

  /// The listings `decode(0)` to `decode(count - 1)` make, in order,
  /// decoded over the machine's cores (`decode` runs on several threads at
  /// once); nil when one does not decode.
  public static func decodingAll(_ count: Int, _ decode: @Sendable (Int) throws -> TaskListing) -> [TaskListing]? {
    let parts = Parallel.map(count, minimumPerPart: 2_000) { range in try? range.map(decode) }
    var listings: [TaskListing] = []
    listings.reserveCapacity(count)
    for part in parts {
      guard let part else { return nil }
      listings.append(contentsOf: part)
    }
    return listings
  }
}

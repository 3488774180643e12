import Domain
import Foundation

/// An encoded task listing (`TaskListing.encoded`) read where it lies: its
/// text fields are the UTF-8 bytes in the buffer, checked but not made
/// into strings. `task list` writes 10,000 of these: making each field a
/// string, each location a value and each listing an array cost about as
/// much as writing their lines. Valid only while the bytes it reads are.
public struct TaskListingView {
  /// One location's fields, its text as UTF-8 in the listing's bytes.
  public struct Location {
    public let id: UnsafeRawBufferPointer
    public let place: UnsafeRawBufferPointer?
    public let placeName: UnsafeRawBufferPointer?
    public let center: Coordinate?
    public let radius: Double
    public let enabled: Bool
    public let hours: UnsafeRawBufferPointer?
  }

  /// The whole encoded listing.
  public let bytes: UnsafeRawBufferPointer
  public let id: UnsafeRawBufferPointer
  public let title: UnsafeRawBufferPointer
  public let state: TaskState
  public let createdAt: Date
  public let onlyWhileOpen: Bool
  public let locationCount: Int
  /// The bytes from the first location on.
  private let rest: UnsafeRawBufferPointer

  /// Reads `bytes` as `TaskListing(decoding:)` does, every location and
  /// every text checked; throws on anything it would refuse.
  public init(_ bytes: UnsafeRawBufferPointer) throws {
    try self.init(bytes, checked: true)
  }

  /// `checked: false` reads only as far as the locations and takes the
  /// text as it is: for bytes a `TaskListingTable` checked when they were
  /// added, read again at every use.
  init(_ bytes: UnsafeRawBufferPointer, checked: Bool) throws {
    self.bytes = bytes
    self.checked = checked
    var reader = BinaryReader(bytes)
    guard try reader.byte() == TaskListing.version else { throw reader.fail("a task listing of another version") }
    id = try reader.text(checked: checked)
    title = try reader.text(checked: checked)
    switch try reader.byte() {
    case 0: state = .active
    case 1: state = .snoozed(until: try reader.date())
    case 2: state = .completed(at: try reader.date())
    default: throw reader.fail("unknown task state")
    }
    createdAt = try reader.date()
    onlyWhileOpen = try reader.bool()
    locationCount = try reader.count()
    rest = UnsafeRawBufferPointer(rebasing: bytes[reader.offset...])
    guard checked else { return }
    var locations = BinaryReader(rest)
    for _ in 0..<locationCount { _ = try Self.location(&locations, checked: true) }
    guard locations.isAtEnd else { throw locations.fail("bytes after a task listing") }
  }

  /// Calls `body` with each location in order.
  public func forEachLocation(_ body: (Location) throws -> Void) throws {
    var reader = BinaryReader(rest)
    for _ in 0..<locationCount { try body(try Self.location(&reader, checked: checked)) }
  }

  private let checked: Bool

  private static func location(_ reader: inout BinaryReader, checked: Bool) throws -> Location {
    Location(
      id: try reader.text(checked: checked), place: try reader.optional { try $0.text(checked: checked) },
      placeName: try reader.optional { try $0.text(checked: checked) }, center: try reader.optional { try $0.coordinate() },
      radius: try reader.finite(), enabled: try reader.bool(), hours: try reader.optional { try $0.text(checked: checked) })
  }
}

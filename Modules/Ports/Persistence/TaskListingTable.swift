/// Encoded task listings side by side in one buffer, each checked as it
/// is added and then read in place (`view(at:_:)`) or decoded
/// (`listing(at:)`): what a store answers `taskListings()` with, so
/// `task list` reads 10,000 listings without a string for each field.
public struct TaskListingTable: Sendable {
  private var bytes: [UInt8] = []
  /// Where each listing ends in `bytes`.
  private var ends: [Int] = []

  public init() {}

  public init(_ listings: some Sequence<TaskListing>) {
    for listing in listings { append(listing) }
  }

  public var count: Int { ends.count }

  /// Adds `encoded` (copied) if it reads as a listing; throws, adding
  /// nothing, if it does not.
  public mutating func append(encoded: UnsafeRawBufferPointer) throws {
    append(try TaskListingView(encoded))
  }

  /// Adds the listing `view` read (its bytes copied, not checked again).
  public mutating func append(_ view: TaskListingView) {
    bytes.append(contentsOf: view.bytes)
    ends.append(bytes.count)
  }

  public mutating func append(_ listing: TaskListing) {
    bytes.append(contentsOf: listing.encoded)
    ends.append(bytes.count)
  }

  /// Calls `body` with listing `index` read in place.
  public func view<Result>(at index: Int, _ body: (TaskListingView) throws -> Result) throws -> Result {
    try bytes.withUnsafeBytes { raw in
      try body(try TaskListingView(UnsafeRawBufferPointer(rebasing: raw[(index == 0 ? 0 : ends[index - 1])..<ends[index]]), checked: false))
    }
  }

  public func listing(at index: Int) throws -> TaskListing {
    try view(at: index) { try TaskListing($0) }
  }

  /// Every listing, decoded, in the table's order.
  public func listings() throws -> [TaskListing] {
    try (0..<count).map(listing(at:))
  }
}

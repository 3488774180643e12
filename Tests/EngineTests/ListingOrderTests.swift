import Domain
import Foundation
import Persistence
import Testing

@testable import Engine

/// `task list`'s order, read from listings left encoded, is the order of
/// their creation times and then their ids compared as strings, whatever
/// the ids hold.
@Suite struct ListingOrderTests {
  /// Ids whose bytes order them as strings do and ids that are compared as
  /// strings (not ASCII, over 16 bytes, a NUL), among them ids that begin
  /// others, made at three moments in a shuffled table.
  @Test func tiesAreOrderedByIdAsStringsCompare() throws {
    let ids = [
      "t1", "t10", "t2", "T1", "t", "b", "ä", "äb", "zz", "Zürich", "x", String(repeating: "x", count: 15), String(repeating: "x", count: 16),
      String(repeating: "x", count: 16) + "y", String(repeating: "x", count: 17), "a\u{0}b", "a", "a\u{0}", "~", "\u{7F}", "日本", "aaaaaaaabbbbbbbb",
      "aaaaaaaabbbbbbba", "aaaaaaab",
    ]
    var listings: [TaskListing] = []
    #expect(ids.count * 3 % 7 != 0)
    for id in ids {
      for moment in [5.0, 1.0, 9.0] {
        listings.append(
          TaskListing(
            id: TaskID("\(id)"), title: id, state: moment == 9 ? .completed(at: Date(timeIntervalSinceReferenceDate: 10)) : .active,
            createdAt: Date(timeIntervalSinceReferenceDate: moment), onlyWhileOpen: false, locations: []))
      }
    }
    // Put out of order: the n-th listing goes to n * 7 mod the count (72, coprime to 7).
    listings = listings.indices.map { listings[$0 * 7 % listings.count] }
    let table = TaskListingTable(listings)
    func expected(_ picked: [TaskListing]) -> [String] {
      picked.sorted { ($0.createdAt, $0.id.rawValue) < ($1.createdAt, $1.id.rawValue) }.map { "\($0.createdAt.timeIntervalSinceReferenceDate) \($0.id)" }
    }
    func listed(_ positions: [Int]) throws -> [String] {
      try positions.map { let listing = try table.listing(at: $0); return "\(listing.createdAt.timeIntervalSinceReferenceDate) \(listing.id)" }
    }
    #expect(try listed(ListingOrder.positions(in: table) { _ in true }) == expected(listings))
    let active = try ListingOrder.positions(in: table) { !$0.state.isCompleted }
    #expect(try listed(active) == expected(listings.filter { !$0.state.isCompleted }))
    #expect(active.count == ids.count * 2)
  }

  @Test func packedIdsReadBackAsThemselves() {
    for id in ["", "a", "t000001", String(repeating: "z", count: 16), "0123456789abcdef"] {
      let packed = Array(id.utf8).withUnsafeBytes { ListingOrder.pack($0) }
      #expect(packed.packed)
      #expect(ListingOrder.unpack(packed.high, packed.low) == id)
    }
    for id in ["ä", String(repeating: "z", count: 17), "a\u{0}"] {
      #expect(!Array(id.utf8).withUnsafeBytes { ListingOrder.pack($0) }.packed, "\(id)")
    }
  }
}

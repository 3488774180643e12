import Domain
import Foundation
import Testing

@testable import Persistence

/// Listings kept encoded (`TaskListingTable`) and read in place
/// (`TaskListingView`) say what the decoded listings say, and bytes that
/// do not read as a listing are refused before they are kept.
@Suite struct TaskListingTableTests {
  static func listing(_ number: Int) -> TaskListing {
    let state: TaskState =
      number % 3 == 0 ? .active : number % 3 == 1 ? .snoozed(until: Date(timeIntervalSinceReferenceDate: Double(number))) : .completed(at: Date(timeIntervalSinceReferenceDate: 7))
    let locations = (0..<(number % 4)).map { at -> TaskListing.Location in
      let center = at == 3 ? nil : try? Coordinate(latitude: 60 + Double(at) / 100, longitude: 24.9)
      let radius = 50 + Double(number % 200)
      return TaskListing.Location(
        id: LocationID("l\(at + 1)"), place: at == 0 ? nil : PlaceID("p\(number)-\(at)"), placeName: at == 2 ? "Alepa \(number) ü" : nil,
        center: center, radius: radius, enabled: number % 2 == 0, hours: at == 1 ? "Mo-Fr 08:00-21:00" : nil)
    }
    return TaskListing(
      id: TaskID(String(format: "t%06d", number)), title: number % 7 == 0 ? "Kauppa \(number) ä\n" : "Task \(number)", state: state,
      createdAt: Date(timeIntervalSinceReferenceDate: Double(number % 97)), onlyWhileOpen: number % 5 == 0, locations: locations)
  }

  @Test func viewsAndDecodedListingsSayWhatWasAdded() throws {
    let listings = (0..<500).map(Self.listing)
    var table = TaskListingTable()
    for (number, listing) in listings.enumerated() {
      if number % 2 == 0 { table.append(listing) } else { try listing.encoded.withUnsafeBytes { try table.append(encoded: $0) } }
    }
    #expect(table.count == listings.count)
    #expect(try table.listings() == listings)
    for (number, listing) in listings.enumerated() {
      try table.view(at: number) { view in
        #expect(Array(view.id) == Array(listing.id.rawValue.utf8) && Array(view.title) == Array(listing.title.utf8))
        #expect(view.state == listing.state && view.createdAt == listing.createdAt && view.onlyWhileOpen == listing.onlyWhileOpen)
        var seen: [TaskListing.Location] = []
        try view.forEachLocation { location in
          seen.append(
            TaskListing.Location(
              id: LocationID(String(decoding: location.id, as: UTF8.self)), place: location.place.map { PlaceID(String(decoding: $0, as: UTF8.self)) },
              placeName: location.placeName.map { String(decoding: $0, as: UTF8.self) }, center: location.center, radius: location.radius,
              enabled: location.enabled, hours: location.hours.map { String(decoding: $0, as: UTF8.self) }))
        }
        #expect(seen == listing.locations, "listing \(number)")
      }
    }
  }

  /// Every cut of a listing, a version this build does not know, bytes
  /// after it and text that is not UTF-8 are refused, and the table keeps
  /// what it held.
  @Test func bytesThatDoNotReadAreRefusedAndNothingIsAdded() throws {
    var table = TaskListingTable()
    table.append(Self.listing(3))
    let good = Self.listing(7).encoded
    var bad: [[UInt8]] = (0..<good.count).map { Array(good[..<$0]) }
    var otherVersion = good
    otherVersion[0] = 99
    var invalidText = good
    let title = Array("Kauppa 7".utf8)
    let at = (0...(good.count - title.count)).first { Array(good[$0..<($0 + title.count)]) == title }!
    invalidText[at] = 0xFF
    bad += [otherVersion, good + [0], invalidText]
    for bytes in bad {
      #expect(throws: (any Error).self, "\(bytes.count) bytes") { try bytes.withUnsafeBytes { try table.append(encoded: $0) } }
      #expect(throws: (any Error).self) { try bytes.withUnsafeBytes { try TaskListing(decoding: $0) } }
    }
    #expect(table.count == 1)
    #expect(try table.listings() == [Self.listing(3)])
  }
}

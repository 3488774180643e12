import Domain
import Foundation
import Locking
import Testing

@testable import Persistence

/// Listings decoded over several threads (`TaskListing.decodingAll`,
/// `Parallel.map`) come back whole, in order, or not at all.
@Suite struct TaskListingDecodingTests {
  static func listing(_ number: Int) -> TaskListing {
    let state: TaskState = number % 3 == 0 ? .active : number % 3 == 1 ? .snoozed(until: Date(timeIntervalSinceReferenceDate: Double(number))) : .completed(at: Date(timeIntervalSinceReferenceDate: 7))
    let locations = (0..<(number % 4)).map { at -> TaskListing.Location in
      let center = at == 3 ? nil : try? Coordinate(latitude: 60 + Double(at) / 100, longitude: 24.9)
      let radius = 50 + Double(number % 200)
      return TaskListing.Location(
        id: LocationID("l\(at + 1)"), place: at == 0 ? nil : PlaceID("p\(number)-\(at)"), placeName: at == 2 ? "Alepa \(number) ü" : nil,
        center: center, radius: radius, enabled: number % 2 == 0, hours: at == 1 ? "Mo-Fr 08:00-21:00" : nil)
    }
    return TaskListing(
      id: TaskID(String(format: "t%06d", number)), title: "Task \(number)", state: state,
      createdAt: Date(timeIntervalSinceReferenceDate: Double(number % 97)), onlyWhileOpen: number % 5 == 0, locations: locations)
  }

  @Test func everyRangeIsCoveredOnceInOrder() {
    for count in [0, 1, 1_999, 4_000, 4_001, 10_007] {
      let ranges = Parallel.map(count, minimumPerPart: 2_000) { $0 }
      #expect(ranges.flatMap { Array($0) } == Array(0..<count), "\(count)")
      if ranges.count > 1 { #expect(ranges.allSatisfy { $0.count >= 2_000 }, "\(count)") }
      if count < 4_000 { #expect(ranges.count == 1, "\(count): fewer than two parts' worth stays on one thread") }
    }
  }

  @Test func manyListingsDecodeInTheirOrder() throws {
    let listings = (0..<9_000).map(Self.listing)
    let encoded = listings.map(\.encoded)
    let decoded = TaskListing.decodingAll(encoded.count) { number in try encoded[number].withUnsafeBytes { try TaskListing(decoding: $0) } }
    #expect(decoded == listings)
  }

  @Test func oneListingThatDoesNotDecodeRefusesThemAll() {
    for broken in [0, 4_321, 8_999] {
      var encoded = (0..<9_000).map { Self.listing($0).encoded }
      encoded[broken][0] = 99  // a version no build wrote
      let decoded = TaskListing.decodingAll(encoded.count) { [encoded] number in try encoded[number].withUnsafeBytes { try TaskListing(decoding: $0) } }
      #expect(decoded == nil, "listing \(broken)")
    }
  }
}

import Domain
@testable import Engine
import FileStore
import Foundation
import Persistence
import Providers
import Testing
import TestSupport

/// Suggestions around the saved places take the first places by name
/// that have a position. A store that reads part of itself answers them
/// from the names and a few places; the answer must be the one every
/// place gives.
@Suite struct SavedPositionsTests {
  static func place(_ id: Int, _ name: String, at position: Coordinate?) -> Place {
    Place(id: PlaceID("p\(id)"), personal: PersonalPlaceData(name: name, coordinate: position), createdAt: Fixtures.epoch)
  }

  /// Names that tie, places without a position among the first by name,
  /// and, after the compaction, a rename, a deletion and a new place.
  static let before: [StoreOperation] = (0..<60).map { n in
    let position = try! Coordinate(latitude: 60.1 + Double(n) / 1000, longitude: 24.9)
    let name = n % 7 == 0 ? "Alepa" : "Shop \(n % 23)"
    return .put(.place(place(n, name, at: n % 5 == 0 ? nil : position)))
  }
  static let after: [StoreOperation] = [
    .put(.place(place(3, "Aaa first now", at: try! Coordinate(latitude: 60.2, longitude: 24.95)))),
    .delete(.place(PlaceID("p1"))),
    .put(.place(place(99, "Alepa", at: try! Coordinate(latitude: 60.3, longitude: 25.0)))),
  ]

  func positions(_ store: any OperationStore, first count: Int) throws -> [String] {
    let context = EngineContext(store: store, clock: ManualClock(Fixtures.epoch), ids: SequentialIDGenerator(prefix: "id"))
    let service = SuggestionService(context: context, suggester: Suggester(provider: InMemoryPlaceProvider(places: [])))
    return try service.savedPositions(first: count).map { "\($0.name) \($0.position)" }
  }

  /// The one-pass selection gives what sorting every name and taking the
  /// first after a point gives, ties of names decided by id.
  @Test func theFirstNamesAreTheSortedOnes() {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      let names = (0..<Int.random(in: 0..<120, using: &random)).map { n in
        (id: PlaceID("p\(Int.random(in: 0..<1000, using: &random))-\(n)"), name: "N\(Int.random(in: 0..<30, using: &random))")
      }
      let sorted = names.sorted(by: SuggestionService.byName)
      let after = sorted.isEmpty || Bool.random(using: &random) ? nil : sorted[Int.random(in: 0..<sorted.count, using: &random)]
      let count = Int.random(in: 1...60, using: &random)
      let expected = sorted.filter { entry in after.map { SuggestionService.byName($0, entry) } ?? true }.prefix(count)
      let got = SuggestionService.first(count, of: names, after: after)
      #expect(got.map(\.id) == expected.map(\.id), "\(count) after \(String(describing: after))")
    }
  }

  @Test(arguments: [1, 4, 9, 30, 100]) func aPartReadGivesWhatEveryPlaceGives(count: Int) throws {
    let memory = InMemoryOperationStore(replica: Fixtures.replica("memory"), clock: ManualClock(Fixtures.epoch))
    try memory.append(Self.before)
    try memory.append(Self.after)

    let folder = TemporaryDirectory()
    let directory = folder.path + "/store"
    do {
      let store = try FileOperationStore(directory: directory, clock: ManualClock(Fixtures.epoch), options: FileStoreOptions(access: .shared))
      defer { store.close() }
      try store.append(Self.before)
      try store.compact()
      try store.append(Self.after)
    }
    let lazy = LazyFileStore(directory: directory) {
      try FileOperationStore(directory: directory, clock: ManualClock(), options: FileStoreOptions(access: .shared))
    }
    defer { lazy.close() }

    let whole = try positions(memory, first: count)
    #expect(whole.count == min(count, 48), "48 places with a position are held")
    let deleted = "Shop 1 \(try Coordinate(latitude: 60.101, longitude: 24.9))"
    #expect(whole.first?.hasPrefix("Aaa first now") == true && !whole.contains(deleted))
    #expect(try positions(lazy, first: count) == whole)
    #expect(!lazy.isOpenWhole, "the names and a few places were read, not the store")
  }
}

import Domain
import Engine
import Foundation
import Importing
import Locking
import Persistence
import Providers
import Testing
import TestSupport

@Suite struct ImportServiceTests {
  let csv = #"""
    Title,Note,URL,Tags,Comment
    ,,,,
    K-Market Asema,by the station,https://x/1,,
    Café Ekberg,,https://x/2,,
    Market,,https://x/3,,
    Temppeliaukio Church,,https://x/4,,
    K-Market Asema,by the station,https://x/1,,

    """#

  func service(_ h: EngineHarness) -> ImportService {
    ImportService(context: h.engine.context, matcher: PlaceMatcher(provider: InMemoryPlaceProvider(places: PlaceProviderConformance.places)))
  }

  func list() throws -> TakeoutList { try TakeoutList.parse(Data(csv.utf8), file: "Shops.csv", name: "Shops") }

  /// A KML placemark carries its position: the matcher uses it to find the
  /// provider's place, and a placemark with none near keeps its own pin.
  @Test func kmlPlacemarksMatchByNameAndPosition() throws {
    let h = EngineHarness()
    let directory = TemporaryDirectory()
    let path = directory.write(
      "Errands.kml",
      """
      <kml><Document><Placemark><name>K-Market Asema</name><Point><coordinates>24.9384,60.1708</coordinates></Point></Placemark>
      <Placemark><name>Grandma's house</name><Point><coordinates>25.1,60.3</coordinates></Point></Placemark></Document></kml>
      """)
    let summary = try service(h).importList(try TakeoutList.read(path), file: "Errands.kml")
    #expect(summary.rows == 2)
    #expect(summary.matched == 2)
    let places = h.store.state().places.values
    #expect(places.first { $0.name == "K-Market Asema" }?.provider?.ref == "osm:node/1")
    #expect(places.first { $0.name == "Grandma's house" }?.coordinate == (try Coordinate(latitude: 60.3, longitude: 25.1)))
    #expect(h.store.state().sourceEntries.count == 2, "no row is dropped")
  }

  /// The same file again, or a copy under another name, maps each row to
  /// the place it made the first time: pinned places are not copied.
  @Test(arguments: ["Errands.kml", "Errands.gpx"])
  func reimportingKeepsOnePlacePerPin(_ name: String) throws {
    let h = EngineHarness()
    let directory = TemporaryDirectory()
    let text = name.hasSuffix(".kml")
      ? """
        <kml><Document><Placemark><name>Grandma's house</name><Point><coordinates>25.1,60.3</coordinates></Point></Placemark>
        <Placemark><name>Summer cottage</name><Point><coordinates>25.4,60.4</coordinates></Point></Placemark>
        <Placemark><name>K-Market Asema</name><Point><coordinates>24.9384,60.1708</coordinates></Point></Placemark></Document></kml>
        """
      : """
        <gpx><wpt lat="60.3" lon="25.1"><name>Grandma's house</name></wpt><wpt lat="60.4" lon="25.4"><name>Summer cottage</name></wpt>
        <wpt lat="60.1708" lon="24.9384"><name>K-Market Asema</name></wpt></gpx>
        """
    let path = directory.write(name, text)
    for _ in 0..<3 { _ = try service(h).importList(try TakeoutList.read(path), file: name) }
    #expect(h.store.state().places.count == 3)
    let copy = directory.write("copy-" + name, text)
    _ = try service(h).importList(try TakeoutList.read(copy), file: "copy-" + name)
    #expect(h.store.state().places.count == 3, "a copy of the file is the same places")
  }

  /// Many rows, so the import runs in several chunks.
  func longList(_ count: Int) -> TakeoutList {
    TakeoutList(name: "Long", description: nil, rows: (0..<count).map { index in
      TakeoutList.Row(number: index + 1, line: index + 2, title: index % 2 == 0 ? "K-Market Asema" : "Unknown place \(index)", note: "", url: "u\(index)")
    })
  }

  @Test func aCancelledImportKeepsItsChunksAndResumesAfterThem() throws {
    let h = EngineHarness()
    let calls = Locked<[Int]>([])
    var control = ImportService.Control(chunk: 10)
    control.progress = { done, total in
      calls.withLock { $0.append(done) }
      #expect(total == 35)
    }
    control.cancelled = { calls.withLock { $0.count >= 2 } }
    #expect(throws: ImportService.Interrupted(reason: .cancelled, done: 20, total: 35)) {
      try service(h).importList(longList(35), file: "Long.csv", control: control)
    }
    #expect(calls.withLock { $0 } == [10, 20])
    #expect(h.store.state().sourceEntries.count == 20, "the finished chunks are kept")
    let resumed = try service(h).importList(longList(35), file: "Long.csv", control: ImportService.Control(chunk: 10))
    #expect(resumed.rows == 35)
    #expect(h.store.state().sourceEntries.count == 35)
    #expect(resumed.matched + resumed.needsReview + resumed.unresolved == 35)
  }

  @Test func aSupersededAttemptsLateResultsAreRefused() throws {
    let h = EngineHarness()
    var control = ImportService.Control(chunk: 10)
    // A newer attempt of the same file starts while this one runs.
    let store = h.store
    control.progress = { done, _ in
      if done == 10 { _ = try? store.append([.put(.setting(key: "local.import.attempt.Long.csv", value: "newer"))]) }
    }
    #expect(throws: ImportService.Interrupted(reason: .superseded, done: 20, total: 35)) {
      try service(h).importList(longList(35), file: "Long.csv", control: control)
    }
    #expect(h.store.state().sourceEntries.count == 10, "nothing written after the newer attempt began")
  }

  @Test func rowsBecomeEntriesAndClearMatchesBecomePlacesInTheList() throws {
    let h = EngineHarness()
    let summary = try service(h).importList(try list(), file: "Shops.csv")
    #expect(summary.rows == 5 && summary.duplicates == 1)
    #expect(summary.matched == 2 && summary.needsReview == 1 && summary.unresolved == 1)
    let state = h.store.state()
    #expect(state.sourceEntries.count == 4, "one entry per distinct row, none dropped")
    #expect(state.places.count == 2 && state.memberships.count == 2)
    #expect(state.lists.values.map(\.name) == ["Shops"])
  }

  @Test func reimportingUpdatesTheSameListAndKeepsDecisions() throws {
    let h = EngineHarness()
    let imports = service(h)
    _ = try imports.importList(try list(), file: "Shops.csv")
    let review = try #require(imports.pending().first { $0.title == "Market" })
    _ = try imports.accept(review.id, candidate: 1)
    let placesBefore = h.store.state().places.count
    let again = try imports.importList(try list(), file: "Shops.csv")
    #expect(again.kept == 1)
    let state = h.store.state()
    #expect(state.lists.count == 1 && state.sourceEntries.count == 4)
    #expect(state.places.count == placesBefore, "no duplicate pins on re-import")
    guard case .matched? = state.sourceEntries[review.id]?.state else {
      Issue.record("the accepted row lost its decision")
      return
    }
  }

  /// `--list NAME` on a file imported before fills that list, made if needed.
  @Test func aNamedListIsHonouredOnReimport() throws {
    let h = EngineHarness()
    let imports = service(h)
    _ = try imports.importList(try list(), file: "Shops.csv")
    let again = try imports.importList(try list(), file: "Shops.csv", listName: "Errands")
    #expect(again.list.name == "Errands")
    let state = h.store.state()
    #expect(Set(state.lists.values.map(\.name)) == ["Shops", "Errands"])
    let errands = try #require(state.lists.values.first { $0.name == "Errands" })
    #expect(state.memberships.contains { $0.list == errands.id }, "the matched places are in the named list too")
  }

  @Test func afterTheListWasDeletedAnImportMakesANewOne() throws {
    let h = EngineHarness()
    let imports = service(h)
    let first = try imports.importList(try list(), file: "Shops.csv")
    _ = try h.engine.places.lists.delete(first.list.id.rawValue)
    let second = try imports.importList(try list(), file: "Shops.csv")
    #expect(second.list.id != first.list.id)
    #expect(h.store.state().lists.values.map(\.id) == [second.list.id])
  }

  @Test func aRejectedRowStaysRejected() throws {
    let h = EngineHarness()
    let imports = service(h)
    _ = try imports.importList(try list(), file: "Shops.csv")
    let row = try #require(imports.pending().first { $0.title == "Temppeliaukio Church" })
    _ = try imports.reject(String(row.id.prefix(6)))
    #expect(imports.pending().allSatisfy { $0.id != row.id })
    #expect(h.store.state().sourceEntries[row.id]?.state == .rejected)
    let before = h.store.batches.count
    #expect(throws: DomainError.self) { try imports.accept(row.id, candidate: 1) }
    #expect(h.store.batches.count == before)
  }
}

@Suite struct ImportReviewTests {
  @Test func searchingAgainAndEnteringByHandSettleRows() throws {
    let h = EngineHarness()
    let imports = ImportService(context: h.engine.context, matcher: PlaceMatcher(provider: InMemoryPlaceProvider(places: PlaceProviderConformance.places)))
    let list = try TakeoutList.parse(Data("Title,Note,URL\nThat cake place,,u1\nMy cabin,,u2\n".utf8), file: "x.csv", name: "x")
    _ = try imports.importList(list, file: "x.csv")
    let cake = try #require(imports.pending().first { $0.title == "That cake place" })
    let again = try imports.searchAgain(cake.id, query: "Ekberg")
    guard case .candidates(let candidates) = again.state else {
      Issue.record("no candidates after searching again")
      return
    }
    #expect(candidates.first?.name == "Café Ekberg")
    #expect(throws: DomainError.self) { try imports.searchAgain(cake.id, query: "zzzz") }
    let cabin = try #require(imports.pending().first { $0.title == "My cabin" })
    let entered = try imports.enter(cabin.id, name: "Mökki", at: try Coordinate(latitude: 61.5, longitude: 23.7))
    guard case .matched(let id) = entered.state else {
      Issue.record("entering by hand did not settle the row")
      return
    }
    #expect(h.store.state().places[id]?.name == "Mökki")
    #expect(h.store.state().memberships.contains(Membership(list: entered.list, place: id)))
    #expect(imports.pending().map(\.title) == ["That cake place"])
  }
}

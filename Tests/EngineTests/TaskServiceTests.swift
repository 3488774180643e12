import Domain
import Engine
import Persistence
import Testing
import TestSupport

@Suite struct TaskServiceTests {
  @Test func oneCommandTiesATaskToSeveralPlacesWithTheirOwnRadii() throws {
    let h = EngineHarness()
    var first = EngineHarness.at(60.1699, 24.9384)
    first.radius = 150
    var second = EngineHarness.at(60.1675, 24.9316)
    second.radius = 80
    let task = try h.engine.tasks.add(title: "Buy milk", locations: [first, second, EngineHarness.at(60.16, 24.93)])
    #expect(task.locations.map(\.radius) == [150, 80, 150])
    #expect(h.store.batches.count == 1)
  }

  @Test func aTaskCanUseASavedPlaceByName() throws {
    let h = EngineHarness()
    let place = try h.engine.places.add(name: "Alepa Kamppi", coordinate: Fixtures.helsinki)
    let task = try h.engine.tasks.add(title: "Milk", locations: [LocationSpec(target: .place("alepa kamppi"))])
    #expect(task.locations[0].target == .place(place.id))
    // Correcting the place moves the trigger with it.
    let moved = try Coordinate(latitude: 60.2, longitude: 24.9)
    _ = try h.engine.places.edit("Alepa Kamppi", to: moved)
    #expect(try h.engine.check.check(at: moved).map(\.task.id) == [task.id])
  }

  /// `listings` are what `list` gives, in its order (oldest first, ties
  /// by id) and for each filter, as `StoreState.listing(of:)` makes them
  /// at that moment; a snooze run out lists as active.
  @Test func listingsAreTheListInItsOrder() throws {
    let h = EngineHarness()
    let place = try h.engine.places.add(name: "Alepa Kamppi", coordinate: Fixtures.helsinki)
    for title in ["Milk", "Stamps", "Bread", "Post"] {
      _ = try h.engine.tasks.add(title: title, locations: [LocationSpec(target: .place(place.id.rawValue)), EngineHarness.at(60.2, 24.9)])
      h.clock.advance(by: title == "Stamps" ? 0 : 60)
    }
    _ = try h.engine.tasks.done("Bread")
    _ = try h.engine.tasks.later("Post", for: 600)
    _ = try h.engine.places.edit("Alepa Kamppi", name: "Alepa Kallio")
    for filter in TaskService.Filter.allCases {
      let (listings, held) = try h.engine.tasks.listings(filter)
      let tasks = h.engine.tasks.list(filter)
      #expect(held == 4)
      #expect(listings.map(\.id) == tasks.map(\.id), "\(filter)")
      #expect(listings == tasks.compactMap { h.store.state().listing(of: $0.id) }, "\(filter)")
    }
    #expect(try h.engine.tasks.listings(.all).listings.first?.locations.first?.placeName == "Alepa Kallio")
    h.clock.advance(by: 601)
    #expect(try h.engine.tasks.listings(.active).listings.map(\.title) == ["Milk", "Stamps", "Post"])
  }

  @Test func refusedCommandsWriteNothing() throws {
    let h = EngineHarness()
    _ = try h.engine.tasks.add(title: "Milk", locations: [EngineHarness.at(60, 24)])
    let before = h.store.batches.count
    var tooSmall = EngineHarness.at(60, 24)
    tooSmall.radius = 10
    #expect(throws: DomainError.self) { try h.engine.tasks.add(title: "X", locations: [tooSmall]) }
    #expect(throws: DomainError.self) { try h.engine.tasks.add(title: " ", locations: [EngineHarness.at(60, 24)]) }
    #expect(throws: DomainError.self) { try h.engine.tasks.add(title: "X", locations: [LocationSpec(target: .place("nowhere"))]) }
    #expect(throws: DomainError.self) { try h.engine.tasks.setRadius("Milk", location: "1", meters: 20_000) }
    #expect(throws: DomainError.self) { try h.engine.tasks.reopen("Milk") }
    #expect(throws: DomainError.self) { try h.engine.tasks.done("nope") }
    #expect(h.store.batches.count == before)
  }

  @Test func doneSilencesAllPlacesAndLaterSnoozesUntilTheTimeComes() throws {
    let h = EngineHarness()
    let task = try h.engine.tasks.add(title: "Milk", locations: [EngineHarness.at(60, 24), EngineHarness.at(61, 25)])
    let here = try Coordinate(latitude: 60, longitude: 24)
    #expect(try h.engine.check.check(at: here).count == 1)
    _ = try h.engine.tasks.later("Milk", for: 7200)
    #expect(try h.engine.check.check(at: here).isEmpty)
    h.clock.advance(by: 7200)
    #expect(try h.engine.check.check(at: here).count == 1)
    _ = try h.engine.tasks.done(task.id.rawValue)
    #expect(try h.engine.check.check(at: here).isEmpty)
    #expect(try h.engine.check.check(at: try Coordinate(latitude: 61, longitude: 25)).isEmpty)
    _ = try h.engine.tasks.reopen("Milk")
    #expect(try h.engine.check.check(at: here).count == 1)
  }

  @Test func placesCanBeReorderedMovedResizedAndDisabled() throws {
    let h = EngineHarness()
    _ = try h.engine.tasks.add(title: "Milk", locations: [EngineHarness.at(60, 24), EngineHarness.at(61, 25)])
    var task = try h.engine.tasks.reorder("Milk", location: "2", priority: 1)
    #expect(task.locations.map(\.id.rawValue) == ["l2", "l1"])
    task = try h.engine.tasks.move("Milk", location: "l1", to: try Coordinate(latitude: 62, longitude: 26))
    #expect(task.locations[1].target == .coordinate(try Coordinate(latitude: 62, longitude: 26)))
    task = try h.engine.tasks.setRadius("Milk", location: "1", meters: 300)
    #expect(task.locations[0].radius == 300)
    task = try h.engine.tasks.setEnabled("Milk", location: "l2", enabled: false)
    #expect(try h.engine.check.check(at: try Coordinate(latitude: 61, longitude: 25)).isEmpty)
    #expect(throws: DomainError.self) { try h.engine.tasks.reorder("Milk", location: "3", priority: 1) }
  }

  @Test func editingChangesOnlyWhatWasGiven() throws {
    let h = EngineHarness()
    _ = try h.engine.tasks.add(title: "Milk", locations: [EngineHarness.at(60, 24)], notes: "2 l", keywords: ["milk"])
    let task = try h.engine.tasks.edit("Milk", title: "Buy oat milk")
    #expect(task.title == "Buy oat milk" && task.notes == "2 l" && task.keywords == ["milk"])
  }

  @Test func referencesByTitleMustBeUnique() throws {
    let h = EngineHarness()
    _ = try h.engine.tasks.add(title: "Milk", locations: [EngineHarness.at(60, 24)])
    _ = try h.engine.tasks.add(title: "milk", locations: [EngineHarness.at(60, 24)])
    let error = #expect(throws: DomainError.self) { try h.engine.tasks.get("MILK") }
    #expect(error?.description.contains("matches several tasks") == true)
    #expect(try h.engine.tasks.get("id0002").title == "milk")
  }
}

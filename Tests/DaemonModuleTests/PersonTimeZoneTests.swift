import Composition
@testable import Daemon
import Domain
import Foundation
import Testing
import TestSupport

/// A daemon on a server keeps UTC; its people live in their own time:
/// opening hours are read in the person's `timeZone`.
@Suite struct PersonTimeZoneTests {
  @Test func openingHoursAreReadInThePersonsOwnTimeZone() throws {
    // 12:00 UTC on a Monday: 15:00 in Helsinki, 02:00 on Tuesday at Kiritimati.
    let daemon = try DaemonHarness(bob: #", "timeZone": "Pacific/Kiritimati""#)
    let now = daemon.runtime.clock.now()
    let center = try Coordinate(latitude: 60.1699, longitude: 24.9384)
    let place = Place(
      id: PlaceID("p1"), personal: PersonalPlaceData(name: "Kauppa"),
      provider: ProviderPlaceData(
        ref: "osm:node/1", name: "Kauppa", coordinate: center, address: nil, category: "shop=supermarket", fetchedAt: now,
        expiresAt: now.addingTimeInterval(86_400), hours: "Mo-Su 08:00-20:00"),
      createdAt: now)
    let task = try ReminderTask(
      id: TaskID("t1"), title: "Buy milk", locations: [TaskLocation(id: LocationID("l1"), target: .place(place.id), radius: 100)], createdAt: now,
      onlyWhileOpen: true)
    for name in ["alice", "bob"] { try daemon.host.seed([.put(.place(place)), .put(.task(task))], for: name) }
    func open(_ person: String) -> Bool? {
      let tasks = daemon.json(daemon.send("GET", "/api/v1/tasks", as: person)) as? [[String: Any]]
      let locations = tasks?.first?["locations"] as? [[String: Any]]
      return locations?.first?["open"] as? Bool
    }
    #expect(daemon.host.people.byName["bob"]?.engine.context.timeZone.identifier == "Pacific/Kiritimati")
    #expect(open("bob") == false, "02:00 where bob lives")
    #expect(daemon.host.people.byName["alice"]?.engine.context.timeZone == daemon.runtime.engine.context.timeZone, "no timeZone: the daemon's")
  }

  @Test func anUnknownTimeZoneIsRefusedNamingThePerson() throws {
    let error = #expect(throws: (any Error).self) { try DaemonHarness(bob: #", "timeZone": "Mars/Olympus""#) }
    #expect("\(error.map { "\($0)" } ?? "")".contains("people.bob.timeZone"))
  }
}

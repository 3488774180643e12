import Domain
import Foundation
import Testing

@Suite struct ReminderTaskTests {
  let now = Date(timeIntervalSince1970: 1_000_000)

  func task() throws -> ReminderTask {
    let here = try Coordinate(latitude: 60.17, longitude: 24.94)
    return try ReminderTask(
      id: TaskID("t"), title: "  Buy milk ",
      locations: [
        TaskLocation(id: LocationID("l1"), target: .coordinate(here), radius: 100),
        TaskLocation(id: LocationID("l2"), target: .coordinate(here), radius: 50, enabled: false),
        TaskLocation(id: LocationID("l3"), target: .place(PlaceID("p")), radius: 80),
      ], createdAt: now)
  }

  @Test func titleIsTrimmedAndMustNotBeEmpty() throws {
    #expect(try task().title == "Buy milk")
    #expect(throws: DomainError.emptyTitle) {
      try ReminderTask(id: TaskID("t"), title: " \n", locations: [], createdAt: now)
    }
  }

  @Test func completingSilencesEveryPlaceAtOnceAndReopeningRestoresThem() throws {
    var task = try task()
    #expect(task.countingLocations(at: now).map(\.id.rawValue) == ["l1", "l3"])
    try task.complete(at: now)
    #expect(task.countingLocations(at: now).isEmpty)
    #expect(throws: DomainError.self) { try task.complete(at: now) }
    try task.reopen()
    #expect(task.countingLocations(at: now).map(\.id.rawValue) == ["l1", "l3"])
  }

  @Test func snoozeSilencesUntilItRunsOut() throws {
    var task = try task()
    try task.snooze(until: now.addingTimeInterval(7200), now: now)
    #expect(task.countingLocations(at: now.addingTimeInterval(7199)).isEmpty)
    #expect(task.countingLocations(at: now.addingTimeInterval(7200)).count == 2)
    #expect(task.state.effective(at: now.addingTimeInterval(7200)) == .active)
  }

  @Test func aDoneTaskCannotBeSnoozedAndAnActiveOneCannotBeReopened() throws {
    var task = try task()
    #expect(throws: DomainError.self) { try task.reopen() }
    try task.complete(at: now)
    #expect(throws: DomainError.self) { try task.snooze(until: now.addingTimeInterval(60), now: now) }
  }

  @Test func reorderingMovesOneLocationAndKeepsIds() throws {
    var task = try task()
    try task.moveLocation(LocationID("l3"), toPriority: 0)
    #expect(task.locations.map(\.id.rawValue) == ["l3", "l1", "l2"])
    #expect(throws: DomainError.self) { try task.moveLocation(LocationID("l3"), toPriority: 3) }
    #expect(throws: DomainError.self) { try task.moveLocation(LocationID("zz"), toPriority: 0) }
  }
}

import Foundation
import Domain
import Geofencing
import Testing

@Suite struct VisitTrackerTests {
  let shop = Destination(task: TaskID("t"), location: LocationID("l1"), center: try! Coordinate(latitude: 0, longitude: 0), radius: 100, priority: 1)

  func point(_ meters: Double) -> Coordinate { try! Coordinate(latitude: meters / 111_195, longitude: 0) }

  @Test func firesOncePerVisitWithoutFlappingAtTheBoundary() {
    var tracker = VisitTracker(exitMargin: 50, refireCooldown: 60)
    let start = Date(timeIntervalSince1970: 0)
    let first = tracker.arrive(shop, at: start)
    #expect(first)
    for (i, meters) in [95.0, 105, 140, 99, 149].enumerated() {
      tracker.observe(point(meters))
      let again = tracker.arrive(shop, at: start.addingTimeInterval(Double(i) * 100))
      #expect(!again, "jitter at \(meters) m must not start a new visit")
    }
    tracker.observe(point(151))
    let next = tracker.arrive(shop, at: start.addingTimeInterval(1000))
    #expect(next)
    #expect(tracker.visitCount[shop.task] == 2)
  }

  @Test func anExitEventEndsTheVisit() {
    var tracker = VisitTracker(refireCooldown: 60)
    let first = tracker.arrive(shop, at: Date(timeIntervalSince1970: 0))
    tracker.left(shop)
    let second = tracker.arrive(shop, at: Date(timeIntervalSince1970: 61))
    #expect(first && second)
  }
}

@Suite struct VisitTrackerCooldownTests {
  @Test func aLateEntryAfterLeavingDoesNotFireTwice() {
    let shop = Destination(task: TaskID("t"), location: LocationID("l1"), center: try! Coordinate(latitude: 0, longitude: 0), radius: 100, priority: 1)
    var tracker = VisitTracker(exitMargin: 50, refireCooldown: 900)
    let start = Date(timeIntervalSince1970: 1_000)
    let first = tracker.arrive(shop, at: start)
    tracker.left(shop)
    let late = tracker.arrive(shop, at: start.addingTimeInterval(300))
    tracker.left(shop)
    let nextDay = tracker.arrive(shop, at: start.addingTimeInterval(901))
    #expect(first && !late && nextDay)
  }
}

/// What a restart or another worker reads back: the visit under way, the
/// cooldown and the visit counts (part of each reminder's id).
@Suite struct VisitTrackerSavedTests {
  let shop = Destination(task: TaskID("t"), location: LocationID("l1"), center: try! Coordinate(latitude: 0, longitude: 0), radius: 100, priority: 1)
  let other = Destination(task: TaskID("u"), location: LocationID("l1"), center: try! Coordinate(latitude: 0.01, longitude: 0), radius: 100, priority: 1)

  @Test func aRestoredTrackerGoesOnAsTheSavedOneWould() throws {
    var tracker = VisitTracker(refireCooldown: 900)
    let start = Date(timeIntervalSince1970: 1_000)
    let arrived = (tracker.arrive(shop, at: start), tracker.arrive(other, at: start))
    #expect(arrived == (true, true))
    tracker.left(other)
    let saved = try JSONDecoder().decode(VisitTracker.Saved.self, from: JSONEncoder().encode(tracker.saved { _ in true }))
    var restored = VisitTracker(refireCooldown: 900)
    restored.restore(saved) { task, location in [self.shop, self.other].first { $0.task == task && $0.location == location } }
    #expect(restored.isVisiting(shop.task) && !restored.isVisiting(other.task))
    let underWay = restored.arrive(shop, at: start.addingTimeInterval(60))
    let cooling = restored.arrive(other, at: start.addingTimeInterval(60))
    let later = restored.arrive(other, at: start.addingTimeInterval(901))
    #expect(!underWay, "the visit under way")
    #expect(!cooling, "the cooldown")
    #expect(later)
    #expect(restored.visitCount[other.task] == 2, "counted on from the saved count")
  }

  @Test func aVisitWhosePlaceIsGoneOrATaskNotKeptIsLeftOut() {
    var tracker = VisitTracker()
    _ = tracker.arrive(shop, at: Date(timeIntervalSince1970: 0))
    _ = tracker.arrive(other, at: Date(timeIntervalSince1970: 0))
    let saved = tracker.saved { $0 == shop.task }
    #expect(Set(saved.tasks.keys) == ["t"])
    var restored = VisitTracker()
    restored.restore(saved) { _, _ in nil }
    #expect(!restored.isVisiting(shop.task))
    #expect(restored.visitCount[shop.task] == 1)
  }
}

import Domain
import Geofencing
import Testing

@Suite struct VisitTrackerTests {
  let shop = Destination(task: TaskID("t"), location: LocationID("l1"), center: try! Coordinate(latitude: 0, longitude: 0), radius: 100, priority: 1)

  func point(_ meters: Double) -> Coordinate { try! Coordinate(latitude: meters / 111_195, longitude: 0) }

  @Test func firesOncePerVisitWithoutFlappingAtTheBoundary() {
    var tracker = VisitTracker(exitMargin: 50)
    let first = tracker.arrive(shop)
    #expect(first)
    for meters in [95.0, 105, 140, 99, 149] {
      tracker.observe(point(meters))
      let again = tracker.arrive(shop)
      #expect(!again, "jitter at \(meters) m must not start a new visit")
    }
    tracker.observe(point(151))
    let next = tracker.arrive(shop)
    #expect(next)
    #expect(tracker.visitCount[shop.task] == 2)
  }

  @Test func anExitEventEndsTheVisit() {
    var tracker = VisitTracker()
    let first = tracker.arrive(shop)
    tracker.left(shop)
    let second = tracker.arrive(shop)
    #expect(first && second)
  }
}

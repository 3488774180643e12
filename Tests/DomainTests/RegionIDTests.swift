import Domain
import Testing

@Suite struct RegionIDTests {
  let center = try! Coordinate(latitude: 60.1699, longitude: 24.9384)

  @Test func isDeterministicAndMapsBack() throws {
    let a = RegionID(task: TaskID("t1"), location: LocationID("l2"), center: center, radius: 150)
    let b = RegionID(task: TaskID("t1"), location: LocationID("l2"), center: center, radius: 150)
    #expect(a == b && a.description == b.description)
    let parsed = try #require(RegionID(parsing: a.description))
    #expect(parsed.task == TaskID("t1") && parsed.location == LocationID("l2"))
  }

  @Test func changesWhenTheCircleChanges() throws {
    let base = RegionID(task: TaskID("t1"), location: LocationID("l1"), center: center, radius: 150)
    let wider = RegionID(task: TaskID("t1"), location: LocationID("l1"), center: center, radius: 151)
    let moved = RegionID(
      task: TaskID("t1"), location: LocationID("l1"), center: try Coordinate(latitude: 60.1700, longitude: 24.9384), radius: 150)
    #expect(base != wider && base != moved && wider != moved)
  }

  @Test(arguments: ["", "wh:t", "xx:t:l:12345678", "wh::l:12345678", "wh:t:l:123"])
  func foreignIdsDoNotParse(_ text: String) {
    #expect(RegionID(parsing: text) == nil)
  }
}

import Domain
import Persistence
import Testing
import TestSupport

@Suite struct InMemoryOperationStoreTests {
  @Test func passesTheStoreConformanceKit() throws {
    try StoreConformance.verify { InMemoryOperationStore(replica: Fixtures.replica("local"), clock: ManualClock()) }
  }

  @Test func stampsStayIncreasingWhenTheClockStandsStill() throws {
    let store = InMemoryOperationStore(replica: Fixtures.replica("a"), clock: ManualClock())
    let first = try store.append([.put(.setting(key: "a", value: "1"))])
    let second = try store.append([.put(.setting(key: "a", value: "2"))])
    #expect(second[0].stamp > first[0].stamp)
    #expect(second[0].stamp.wallMillis == first[0].stamp.wallMillis)
  }
}

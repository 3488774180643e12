import Domain
import Persistence
import Testing
import TestSupport

@Suite struct StoreStateTests {
  @Test func anyDeliveryOrderConverges() {
    let records = (0..<40).map { i -> OperationRecord in
      let id = "p\(i % 5)"
      let op: StoreOperation = i % 3 == 0 ? .delete(.place(PlaceID(id))) : .put(.place(Fixtures.place(id, name: "n\(i)")))
      return OperationRecord(stamp: Fixtures.stamp(Int64(i * 7 % 40), replica: "r\(i % 3)"), operation: op)
    }
    var reference = StoreState()
    records.forEach { reference.apply($0) }
    var generator = SplitMix64(seed: 7)
    for _ in 0..<20 {
      var state = StoreState()
      for record in records.shuffled(using: &generator) + records.shuffled(using: &generator) { state.apply(record) }
      #expect(state.places == reference.places)
      #expect(state.versions == reference.versions)
    }
  }

  @Test func recordsSinceReproduceTheState() {
    var source = StoreState()
    source.apply(OperationRecord(stamp: Fixtures.stamp(1), operation: .put(.list(Fixtures.list("a")))))
    source.apply(OperationRecord(stamp: Fixtures.stamp(2), operation: .delete(.list(ListID("a")))))
    source.apply(OperationRecord(stamp: Fixtures.stamp(3), operation: .put(.list(Fixtures.list("b")))))
    var copy = StoreState()
    source.records(since: nil).forEach { copy.apply($0) }
    #expect(copy.lists == source.lists)
    #expect(copy.tombstoneCount == 1)
    // The tombstone travels, so a stale put arriving later stays dead.
    let applied = copy.apply(OperationRecord(stamp: Fixtures.stamp(1), operation: .put(.list(Fixtures.list("a")))))
    #expect(!applied)
    #expect(copy.lists[ListID("a")] == nil)
  }
}

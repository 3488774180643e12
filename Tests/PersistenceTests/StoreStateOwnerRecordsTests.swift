import Domain
import Persistence
import Testing
import TestSupport

/// `StoreState.records(of:)`: the records of some owners are exactly those
/// of all the state's records that belong to them (what a part read of an
/// open store answers, without building every record).
@Suite struct StoreStateOwnerRecordsTests {
  @Test func anOwnersRecordsAreThoseOfTheWholeThatAreItsOwn() throws {
    let store = InMemoryOperationStore(replica: Fixtures.replica("here"), clock: ManualClock(Fixtures.epoch))
    var place = Fixtures.place("p1")
    place.personal.tags = ["food"]
    try store.append([.put(.place(place)), .put(.place(Fixtures.place("p2"))), .put(.list(Fixtures.list("l1"))), .put(.task(Fixtures.task("t1")))])
    try store.append([.put(.membership(Membership(list: ListID("l1"), place: PlaceID("p1")))), .put(.membership(Membership(list: ListID("l1"), place: PlaceID("p2"))))])
    place.personal.tags = ["coffee"]
    place.personal.note = "by the station"
    try store.append([.put(.place(place)), .delete(.membership(Membership(list: ListID("l1"), place: PlaceID("p2"))))])
    var task = Fixtures.task("t1")
    task.title = "Buy oat milk"
    try store.append([.put(.task(task)), .delete(.place(PlaceID("p2")))])
    let state = store.state()
    let owners: [EntityKey] = [.place(PlaceID("p1")), .place(PlaceID("p2")), .task(TaskID("t1")), .list(ListID("l1")), .task(TaskID("none"))]
    for owner in owners {
      let expected = state.records(since: nil).filter { $0.operation.key.owner == owner }
      #expect(state.records(of: [owner]) == expected, "\(owner)")
    }
    #expect(state.records(of: [.place(PlaceID("p1"))]).count > 2, "p1's put, its tag changes and its membership")
    #expect(Set(state.records(of: Set(owners))) == Set(state.records(since: nil)))
  }
}

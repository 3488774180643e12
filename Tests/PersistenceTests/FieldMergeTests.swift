import Domain
import Foundation
import Persistence
import Testing
import TestSupport

/// Last-writer-wins per field and tags as a set: what two people editing
/// the same task or place on two machines at once rely on.
@Suite struct FieldMergeTests {
  let clock = ManualClock(Fixtures.epoch)

  func replicas() -> (InMemoryOperationStore, InMemoryOperationStore) {
    (InMemoryOperationStore(replica: Fixtures.replica("laptop"), clock: clock),
     InMemoryOperationStore(replica: Fixtures.replica("phone"), clock: clock))
  }

  /// Both ways, everything each holds.
  func exchange(_ a: InMemoryOperationStore, _ b: InMemoryOperationStore) throws {
    let fromA = try a.operations(since: nil)
    let fromB = try b.operations(since: nil)
    try b.merge(fromA)
    try a.merge(fromB)
  }

  @Test func concurrentEditsOfDifferentFieldsBothSurvive() throws {
    let (laptop, phone) = replicas()
    try laptop.append([.put(.task(Fixtures.task("t1")))])
    try exchange(laptop, phone)
    var renamed = laptop.state().tasks[TaskID("t1")]!
    renamed.title = "Buy oat milk"
    clock.advance(by: 1)
    try laptop.append([.put(.task(renamed))])
    var done = phone.state().tasks[TaskID("t1")]!
    done.state = .completed(at: clock.now())
    clock.advance(by: 1)
    try phone.append([.put(.task(done))])
    try exchange(laptop, phone)
    for store in [laptop, phone] {
      let task = store.state().tasks[TaskID("t1")]!
      #expect(task.title == "Buy oat milk")
      #expect(task.state == .completed(at: Fixtures.epoch.addingTimeInterval(1)))
    }
    #expect(laptop.state() == phone.state())
  }

  @Test func theSameFieldEditedTwiceKeepsTheNewerEdit() throws {
    let (laptop, phone) = replicas()
    try laptop.append([.put(.place(Fixtures.place("p1")))])
    try exchange(laptop, phone)
    var older = laptop.state().places[PlaceID("p1")]!
    older.personal.name = "Alepa Kamppi"
    try laptop.append([.put(.place(older))])
    clock.advance(by: 1)
    var newer = phone.state().places[PlaceID("p1")]!
    newer.personal.name = "Alepa Fredrikinkatu"
    newer.personal.note = "closes at 23"
    try phone.append([.put(.place(newer))])
    try exchange(laptop, phone)
    #expect(laptop.state().places[PlaceID("p1")]?.name == "Alepa Fredrikinkatu")
    #expect(laptop.state().places[PlaceID("p1")]?.personal.note == "closes at 23")
    #expect(laptop.state() == phone.state())
  }

  @Test func anEditWritesOnlyTheFieldsThatChangedAndAnUnchangedPutWritesNothing() throws {
    let (laptop, _) = replicas()
    try laptop.append([.put(.task(Fixtures.task("t1")))])
    var task = laptop.state().tasks[TaskID("t1")]!
    #expect(try laptop.append([.put(.task(task))]).isEmpty)
    task.notes = "2 litres"
    task.keywords = ["maito"]
    let written = try laptop.append([.put(.task(task))])
    #expect(written.count == 1)
    #expect(written.first?.fields?.names(of: .task(task.id)) == ["notes", "keywords"])
    #expect(laptop.state().tasks[task.id] == task)
  }

  /// Within one batch each put is compared with what the batch wrote
  /// before it, not with the state the batch started from.
  @Test func aBatchSeesItsOwnEarlierWrites() throws {
    let (laptop, _) = replicas()
    var place = Fixtures.place("p1")
    place.personal.tags = ["cafe"]
    try laptop.append([.put(.place(place)), .put(.task(Fixtures.task("t1")))])
    var tagged = place
    tagged.personal.tags = ["cafe", "work"]
    // Tag, then put back as it was: the tag must not stay.
    try laptop.append([.put(.place(tagged)), .put(.place(place))])
    #expect(laptop.state().places[place.id]?.personal.tags == ["cafe"])
    // Delete, then put again in one batch: a whole put, so it is back.
    let written = try laptop.append([.delete(.task(TaskID("t1"))), .put(.task(Fixtures.task("t1", title: "Again")))])
    #expect(written.map(\.fields) == [nil, nil])
    #expect(laptop.state().tasks[TaskID("t1")]?.title == "Again")
  }

  @Test func tagsMergeAsASet() throws {
    let (laptop, phone) = replicas()
    var place = Fixtures.place("p1")
    place.personal.tags = ["cafe", "late"]
    try laptop.append([.put(.place(place))])
    try exchange(laptop, phone)
    // The laptop tags "work" while the phone untags "cafe".
    var tagged = laptop.state().places[place.id]!
    tagged.personal.tags = ["cafe", "late", "work"]
    try laptop.append([.put(.place(tagged))])
    clock.advance(by: 1)
    var untagged = phone.state().places[place.id]!
    untagged.personal.tags = ["late"]
    let written = try phone.append([.put(.place(untagged))])
    #expect(written.map(\.operation) == [.delete(.tag(PlaceTag(place: place.id, name: "cafe")))])
    try exchange(laptop, phone)
    #expect(laptop.state().places[place.id]?.personal.tags == ["late", "work"])
    #expect(laptop.state() == phone.state())
    // Untagged on the laptop; untagged and tagged again later on the phone:
    // the later write of that tag wins.
    var again = laptop.state().places[place.id]!
    again.personal.tags = ["work"]
    try laptop.append([.put(.place(again))])
    var back = phone.state().places[place.id]!
    back.personal.tags = ["work"]
    clock.advance(by: 1)
    try phone.append([.put(.place(back))])
    back.personal.tags = ["late", "work"]
    clock.advance(by: 1)
    try phone.append([.put(.place(back))])
    try exchange(laptop, phone)
    #expect(laptop.state().places[place.id]?.personal.tags == ["late", "work"])
    #expect(laptop.state() == phone.state())
  }

  /// Which newer write beat a record: none for one that would change the
  /// state or is held already; the field's or tag's newest write otherwise.
  @Test func theNewerWriteThatWonIsNamed() {
    var state = StoreState()
    let whole = OperationRecord(stamp: Fixtures.stamp(1), operation: .put(.task(Fixtures.task("t1"))))
    let title = OperationRecord(stamp: Fixtures.stamp(5), operation: .put(.task(Fixtures.task("t1", title: "New"))), fields: .bit(0))
    let tag = OperationRecord(stamp: Fixtures.stamp(6), operation: .put(.tag(PlaceTag(place: PlaceID("p1"), name: "cafe"))))
    for record in [whole, title, tag] { state.apply(record) }
    #expect(state.newerWrite(than: whole) == nil, "held already")
    #expect(state.newerWrite(than: title) == nil, "held already")
    let olderTitle = OperationRecord(stamp: Fixtures.stamp(3), operation: .put(.task(Fixtures.task("t1", title: "Old"))), fields: .bit(0))
    #expect(state.newerWrite(than: olderTitle) == title.stamp)
    let olderNotes = OperationRecord(stamp: Fixtures.stamp(3), operation: .put(.task(Fixtures.task("t1"))), fields: .bit(1))
    #expect(state.newerWrite(than: olderNotes) == nil, "notes were never written after it: it applies")
    let olderUntag = OperationRecord(stamp: Fixtures.stamp(4), operation: .delete(.tag(PlaceTag(place: PlaceID("p1"), name: "cafe"))))
    #expect(state.newerWrite(than: olderUntag) == tag.stamp)
    let olderWhole = OperationRecord(stamp: Fixtures.stamp(0), operation: .put(.task(Fixtures.task("t1"))))
    #expect(state.newerWrite(than: olderWhole) == whole.stamp)
  }

  /// Applying a batch puts tags in order once at the end; the result is the
  /// same as applying the records one by one.
  @Test func aBatchOfTagRecordsEndsAsOneByOne() {
    var records = [OperationRecord(stamp: Fixtures.stamp(1), operation: .put(.place(Fixtures.place("p1"))))]
    var random = SplitMix64(seed: 3)
    for i in 0..<600 {
      let tag = PlaceTag(place: PlaceID("p1"), name: ["Cafe", "café", "work", "late", "cheap", "wifi"][Int(random.next() % 6)] + "\(i % 7)")
      let operation: StoreOperation = random.next() % 3 == 0 ? .delete(.tag(tag)) : .put(.tag(tag))
      records.append(OperationRecord(stamp: Fixtures.stamp(Int64(2 + random.next() % 400), UInt32(i)), operation: operation))
      if i % 150 == 0 {
        var place = Fixtures.place("p1")
        place.personal.tags = ["base\(i)"]
        records.append(OperationRecord(stamp: Fixtures.stamp(Int64(2 + random.next() % 400), UInt32(i + 1000)), operation: .put(.place(place))))
      }
    }
    var oneByOne = StoreState()
    for record in records { oneByOne.apply(record) }
    var batch = StoreState()
    batch.apply(contentsOf: records.shuffled(using: &random))
    #expect(batch == oneByOne)
    #expect(oneByOne.places[PlaceID("p1")]?.personal.tags.isEmpty == false)
  }

  /// "Cafe" tagged on one machine and "café" on another show as one tag;
  /// untagging it removes both, so it does not come back in another spelling.
  @Test func untaggingRemovesEverySpellingOfTheTag() throws {
    let (laptop, phone) = replicas()
    try laptop.append([.put(.place(Fixtures.place("p1")))])
    try exchange(laptop, phone)
    var a = laptop.state().places[PlaceID("p1")]!
    a.personal.tags = ["Cafe"]
    try laptop.append([.put(.place(a))])
    var b = phone.state().places[PlaceID("p1")]!
    b.personal.tags = ["café"]
    clock.advance(by: 1)
    try phone.append([.put(.place(b))])
    try exchange(laptop, phone)
    #expect(laptop.state().places[PlaceID("p1")]?.personal.tags.count == 1)
    var untagged = laptop.state().places[PlaceID("p1")]!
    untagged.personal.tags = []
    clock.advance(by: 1)
    try laptop.append([.put(.place(untagged))])
    try exchange(laptop, phone)
    #expect(laptop.state().places[PlaceID("p1")]?.personal.tags == [])
    #expect(laptop.state() == phone.state())
  }

  /// An edit made on a machine that had not yet heard of a deletion does not
  /// bring the task back; a deliberate whole put (a restore) does, and an
  /// edit newer than that put still applies to it.
  @Test func anEditDoesNotResurrectButAWholePutDoes() throws {
    let (laptop, phone) = replicas()
    try laptop.append([.put(.task(Fixtures.task("t1")))])
    try exchange(laptop, phone)
    clock.advance(by: 1)
    try laptop.append([.delete(.task(TaskID("t1")))])
    clock.advance(by: 1)
    var edited = phone.state().tasks[TaskID("t1")]!
    edited.notes = "edited offline"
    try phone.append([.put(.task(edited))])
    try exchange(laptop, phone)
    #expect(laptop.state().tasks.isEmpty && phone.state().tasks.isEmpty)
    #expect(laptop.state() == phone.state())
    // A whole put older than the edit (stamped between the delete and it) restores the task with the edit.
    let restore = OperationRecord(
      stamp: HLCTimestamp(wallMillis: Int64(Fixtures.epoch.addingTimeInterval(1.5).timeIntervalSince1970 * 1000), counter: 0, replica: Fixtures.replica("backup")),
      operation: .put(.task(Fixtures.task("t1", title: "Restored"))))
    try laptop.merge([restore])
    let task = laptop.state().tasks[TaskID("t1")]
    #expect(task?.title == "Restored")
    #expect(task?.notes == "edited offline")
  }

  /// Compaction (and a backup) keeps each field's stamp, so an older edit
  /// arriving afterwards still loses to the newer one it lost to before.
  @Test func recordsSinceKeepEveryFieldStamp() throws {
    let (laptop, phone) = replicas()
    try laptop.append([.put(.task(Fixtures.task("t1")))])
    try exchange(laptop, phone)
    var task = laptop.state().tasks[TaskID("t1")]!
    task.title = "newer title"
    clock.advance(by: 5)
    try laptop.append([.put(.task(task))])
    var copy = StoreState()
    for record in laptop.state().records(since: nil) { copy.apply(record) }
    #expect(copy == laptop.state())
    var stale = phone.state().tasks[TaskID("t1")]!
    stale.title = "older title"
    let staleRecord = OperationRecord(
      stamp: HLCTimestamp(wallMillis: Int64(Fixtures.epoch.timeIntervalSince1970 * 1000) + 1, counter: 0, replica: Fixtures.replica("phone")),
      operation: .put(.task(stale)), fields: .bit(0))
    let applied = copy.apply(staleRecord)
    #expect(!applied)
    #expect(copy.tasks[TaskID("t1")]?.title == "newer title")
  }
}

import Domain
import FileStore
import Foundation
import Persistence

/// Sync's core cost: merging another replica's operations into a durable
/// store, in batches as a sync pull delivers them. Baseline in the same
/// run: appending the same operations as this replica's own writes.
enum MergeBenchmark {
  static let batch = 10_000

  /// Merges `records` batch by batch: how many changed the store, and the seconds it took.
  static func timedMerge(_ records: [OperationRecord], into store: FileOperationStore) -> (applied: Int, seconds: Double) {
    var applied = 0
    let seconds = measure {
      for chunk in chunks(records) { applied += try! store.merge(chunk).count }
    }
    return (applied, seconds)
  }

  /// `items` in delivery-sized batches.
  static func chunks<T>(_ items: [T]) -> [[T]] {
    stride(from: 0, to: items.count, by: batch).map { Array(items[$0..<min(items.count, $0 + batch)]) }
  }

  static func run(operations count: Int) throws {
    let world = Workload(places: count, tasks: 0, seed: 7)
    let other = InMemoryOperationStore(replica: try ReplicaID("other-laptop"))
    let operations = world.placeOperations()
    for chunk in chunks(operations) {
      try other.append(chunk)
    }
    let records = try other.operations(since: nil)
    print("workload: merge \(records.count) operations (places) from another replica, batches of \(batch), durable file store; then edits of every other place (a note and a tag); \(ProcessInfo.processInfo.activeProcessorCount) cores")
    var report = Report()

    let appendDirectory = NSTemporaryDirectory() + "whilehere-merge-append-" + UUID().uuidString
    let mergeDirectory = NSTemporaryDirectory() + "whilehere-merge-" + UUID().uuidString
    defer {
      try? FileManager.default.removeItem(atPath: appendDirectory)
      try? FileManager.default.removeItem(atPath: mergeDirectory)
    }
    let appendStore = try FileOperationStore(directory: appendDirectory)
    let appended = measure {
      for chunk in chunks(operations) {
        try! appendStore.append(chunk)
      }
    }
    appendStore.close()
    report.add("baseline: append as own writes", Double(operations.count) / appended, "ops/s", "\(operations.count) ops in \(format(appended)) s")

    let mergeStore = try FileOperationStore(directory: mergeDirectory)
    let (changed, merged) = timedMerge(records, into: mergeStore)
    report.add("merge from another replica", Double(records.count) / merged, "ops/s", "\(changed) applied in \(format(merged)) s, \(format(appended / merged))x the baseline's speed")
    let (again, remerged) = timedMerge(records, into: mergeStore)
    report.add("merge the same again (idempotent)", Double(records.count) / remerged, "ops/s", "\(again) applied in \(format(remerged)) s")

    // Edits of half the places (a note and a tag each): what the other
    // replica writes as field updates and tag records, and what they cost
    // to write locally and to merge.
    let before = other.state().latest
    let held = other.state().places
    let edits: [StoreOperation] = operations.indices.filter { $0 % 2 == 0 }.compactMap { index in
      guard case .put(.place(let original)) = operations[index], var place = held[original.id] else { return nil }
      place.personal.note = "edited \(index)"
      place.personal.tags.append("edited")
      return .put(.place(place))
    }
    for chunk in chunks(edits) {
      try other.append(chunk)
    }
    let editRecords = try other.operations(since: before)
    let reopened = try FileOperationStore(directory: appendDirectory)
    var written = 0
    let editedLocally = measure {
      for chunk in chunks(edits) {
        written += try! reopened.append(chunk).count
      }
    }
    reopened.close()
    report.add("edits as own writes (diffed)", Double(edits.count) / editedLocally, "puts/s", "\(edits.count) puts → \(written) records in \(format(editedLocally)) s")
    let (editsApplied, editsMerged) = timedMerge(editRecords, into: mergeStore)
    report.add("merge the edits (field updates, tags)", Double(editRecords.count) / editsMerged, "ops/s", "\(editsApplied) applied in \(format(editsMerged)) s")
    let converged = mergeStore.state().places == other.state().places
    mergeStore.close()
    guard changed == records.count, again == 0, editsApplied == editRecords.count, converged else {
      print("error: merged \(changed) of \(records.count), re-merge changed \(again), edits \(editsApplied) of \(editRecords.count), converged \(converged)")
      exit(1)
    }
    report.print()
  }
}

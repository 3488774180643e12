import Domain
import Foundation
import Persistence

/// The write rows every store is measured on, so stores compare on the
/// same work: the workload in batches of 1000 operations, 300 single
/// durable writes, and 8 writers × 150 single writes at once (with the
/// fsyncs they took, for a store that counts them: group commit shares them).
enum StoreWrites {
  static func run(
    _ store: any OperationStore, world: Workload, label: String, into report: inout Report, syncs: (() -> Int)? = nil
  ) {
    let operations = world.placeOperations() + world.taskOperations()
    let bulk = measure {
      var index = 0
      while index < operations.count {
        let end = min(operations.count, index + 1000)
        try! store.append(Array(operations[index..<end]))
        index = end
      }
    }
    report.add("\(label)batched writes (1000 ops per append)", Double(operations.count) / bulk, "ops/s", "\(operations.count) ops in \(format(bulk)) s")
    let singles = 300
    let single = measure {
      for i in 0..<singles { try! store.append([.put(.setting(key: "single-\(i)", value: "v"))]) }
    }
    report.add("\(label)single durable writes (1 op per append)", Double(singles) / single, "writes/s", "\(singles) appends in \(format(single)) s")
    let writers = 8
    let perWriter = 150
    let syncsBefore = syncs?() ?? 0
    let concurrent = measure {
      DispatchQueue.concurrentPerform(iterations: writers) { writer in
        for i in 0..<perWriter { try! store.append([.put(.setting(key: "w\(writer)-\(i)", value: "v"))]) }
      }
    }
    report.add(
      "\(label)concurrent durable writes (\(writers) writers)", Double(writers * perWriter) / concurrent, "writes/s",
      "\(writers * perWriter) appends in \(format(concurrent)) s, " + (syncs.map { "\($0() - syncsBefore) fsyncs" } ?? "one transaction each"))
  }
}

import Domain
import Foundation
import Persistence
import SQLiteStore

/// The same workload on a `sqlite:` store, next to the FileStore's rows
/// of the same run: batched, single and concurrent durable writes, and a
/// cold open against reading the database's bytes.
enum SQLiteBenchmark {
  static func run(_ world: Workload, directory: String, into report: inout Report) throws {
    let path = directory + "/store.sqlite"
    let store = try SQLiteOperationStore(path: path)
    let bulkOps = world.placeOperations() + world.taskOperations()
    let bulk = measure {
      var index = 0
      while index < bulkOps.count {
        let end = min(bulkOps.count, index + 1000)
        try! store.append(Array(bulkOps[index..<end]))
        index = end
      }
    }
    report.add("sqlite: batched writes (1000 ops per append)", Double(bulkOps.count) / bulk, "ops/s", "\(bulkOps.count) ops in \(format(bulk)) s")
    let singles = 300
    let single = measure {
      for i in 0..<singles { try! store.append([.put(.setting(key: "single-\(i)", value: "v"))]) }
    }
    report.add("sqlite: single durable writes (1 op per append)", Double(singles) / single, "writes/s", "\(singles) appends in \(format(single)) s")
    let writers = 8
    let perWriter = 150
    let concurrent = measure {
      DispatchQueue.concurrentPerform(iterations: writers) { writer in
        for i in 0..<perWriter { try! store.append([.put(.setting(key: "w\(writer)-\(i)", value: "v"))]) }
      }
    }
    report.add("sqlite: concurrent durable writes (\(writers) writers)", Double(writers * perWriter) / concurrent, "writes/s", "\(writers * perWriter) appends in \(format(concurrent)) s (one transaction each)")
    store.close()
    let bytes = fileSize(path) + fileSize(path + "-wal")
    let open = measureBest(3) { try! SQLiteOperationStore(path: path).close() }
    let raw = measureBest(3) {
      checksumFile(path)
      if FileManager.default.fileExists(atPath: path + "-wal") { checksumFile(path + "-wal") }
    }
    report.add("sqlite: cold open (\(bytes >> 20) MiB)", open, "s", "raw read+CRC32 \(format(raw)) s, ratio \(format(open / raw))x")
    let reopened = try SQLiteOperationStore(path: path)
    let state = reopened.state()
    reopened.close()
    guard state.places.count == world.places, state.tasks.count == world.tasks else {
      throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "reopened sqlite store has \(state.places.count) places"])
    }
  }
}

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
    StoreWrites.run(store, world: world, label: "sqlite: ", into: &report)
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

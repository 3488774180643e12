// whilehere-bench: FileStore figures on a realistic collection.
//   swift run -c release whilehere-bench [--places 100000] [--tasks 10000] [--dir DIR]
//   swift run -c release whilehere-bench --merge 1000000   (sync: merging another replica's log)
//   swift run -c release whilehere-bench --sqlite          (the same workload on a sqlite: store too)
//   swift run -c release whilehere-bench --sqlite --commands .build/release/whilehere
//                                                          (and everyday commands' wall time on both stores)
//   … --commands NEW --before OLD                          (an older build's times beside, run alternately)
//   swift run -c release whilehere-bench --nats nats://127.0.0.1:4222 [--messages 5000]
//                                                          (opening a nats: log with and without snapshots)
// Prints the workload, durable writes per second (one at a time, batched,
// and concurrent writers sharing fsyncs), and the cold open time next to a
// baseline measured in the same run: reading and checksumming the same bytes.
import Domain
import FileStore
import Foundation
import Persistence

let options = BenchOptions(CommandLine.arguments.dropFirst())
if let count = options.merge {
  try MergeBenchmark.run(operations: count)
  exit(0)
}
if let servers = options.nats {
  try NATSOpenBenchmark.run(servers: servers, messages: options.messages)
  exit(0)
}
let directory = options.directory ?? NSTemporaryDirectory() + "whilehere-bench-" + UUID().uuidString
defer { if options.directory == nil { try? FileManager.default.removeItem(atPath: directory) } }
var world = Workload(places: options.places, tasks: options.tasks, seed: 42)
world.accented = options.accented

print("workload: \(options.places) places, \(options.tasks) tasks (1-3 places each), seed 42, names \(options.accented ? "beyond ASCII (Kauppa Äitee N)" : "ASCII (Place N)"), store \(directory)")
print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB")
var report = Report()

// Batched, single and concurrent durable writes (StoreWrites); the
// FileStore's group commit shares fsyncs, counted in the note.
var store = try FileOperationStore(directory: directory)
StoreWrites.run(store, world: world, label: "", into: &report) { [store] in store.syncCount }
store.close()

// 4. Cold open: replaying the log, then from a snapshot after compaction.
// The manifest names the files of the current generation (`log`, `log-2`, …).
let logPath = directory + "/" + (try FileOperationStore.namedFiles(directory: directory)?.log ?? "log")
let logBytes = fileSize(logPath)
let openLog = measureBest(3) { try! FileOperationStore(directory: directory).close() }
let rawLog = measureBest(3) { checksumFile(logPath) }
report.add("cold open from log (\(logBytes >> 20) MiB)", openLog, "s", "raw read+CRC32 \(format(rawLog)) s, ratio \(format(openLog / rawLog))x")

store = try FileOperationStore(directory: directory)
try store.compact()
store.close()
let snapshotPath = directory + "/" + (try FileOperationStore.namedFiles(directory: directory)?.snapshot ?? "snapshot")
let snapshotBytes = fileSize(snapshotPath)
let openSnapshot = measureBest(3) { try! FileOperationStore(directory: directory).close() }
let rawSnapshot = measureBest(3) { checksumFile(snapshotPath) }
report.add("cold open from snapshot (\(snapshotBytes >> 20) MiB)", openSnapshot, "s", "raw read+CRC32 \(format(rawSnapshot)) s, ratio \(format(openSnapshot / rawSnapshot))x")

// What a command that names one place pays (the CLI opens the store lazily, `LazyFileStore`).
let lazyRead = measureBest(3) {
  let lazy = LazyFileStore(directory: directory) { try FileOperationStore(directory: directory, options: FileStoreOptions(access: .shared)) }
  blackHole(try! lazy.state(of: [.place(PlaceID("p0000001"))]))
  lazy.close()
}
report.add("lazy open + one place read", lazyRead, "s", "raw read+CRC32 of the snapshot \(format(rawSnapshot)) s, ratio \(format(lazyRead / rawSnapshot))x")

let reopened = try FileOperationStore(directory: directory)
let state = reopened.state()
reopened.close()
guard state.places.count == options.places, state.tasks.count == options.tasks else {
  print("error: reopened store has \(state.places.count) places and \(state.tasks.count) tasks")
  exit(1)
}
if options.sqlite { try SQLiteBenchmark.run(world, directory: directory, into: &report) }
if let binary = options.commands {
  var stores = [(label: "file: ", spec: "file:" + directory)]
  if options.sqlite { stores.append((label: "sqlite: ", spec: "sqlite:" + directory + "/store.sqlite")) }
  // A person's store is at rest when they run a command; these were just
  // written (60 MB at 100k places), and the kernel writing them back took
  // the disk and a core from the first commands timed.
  let syncing = Date()
  sync()
  print("stores written out before the commands are timed: sync took \(format(Date().timeIntervalSince(syncing) * 1000)) ms")
  try CommandTimes.run(binary: binary, before: options.before, world: world, stores: stores, directory: directory, into: &report)
}
report.print()

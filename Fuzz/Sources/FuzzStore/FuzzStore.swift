import Domain
import FileStore
import Foundation
import FuzzBounds
import Persistence

/// A store directory copied from somewhere (a backup, another machine, a
/// damaged disk): opened for reading, it gives its state or a StoreError,
/// never a crash. The first byte picks the file the rest replaces in a valid
/// compacted store: 0 its log, 1 its manifest, 2 its snapshot, 3 the log of
/// a store from before manifests, 4 its snapshot's sidecar (the rest after
/// the sidecar's header and the snapshot's length and checksum, with the
/// sidecar's own checksum made right: a damaged one is read by the part
/// reads a command makes, or not used).
enum Template {
  /// The files of a valid store: a snapshot of places, a task at one, a
  /// list holding two and two settings, a log of one more.
  static let files: [String: [UInt8]] = {
    let directory = NSTemporaryDirectory() + "whilehere-fuzz-template-\(getpid())"
    try? FileManager.default.removeItem(atPath: directory)
    let store = try! FileOperationStore(directory: directory, newReplica: try! ReplicaID("fuzz"))
    try! store.append([.put(.setting(key: "a", value: "1")), .delete(.task(TaskID("t1")))])
    var places: [StoreOperation] = []
    let epoch = Date(timeIntervalSince1970: 0)
    for (index, name) in ["Alepa", "K-Market"].enumerated() {
      let coordinate = try! Coordinate(latitude: 60.17 + Double(index) / 1000, longitude: 24.94)
      places.append(.put(.place(Place(id: PlaceID("p\(index)"), personal: PersonalPlaceData(name: name, coordinate: coordinate), createdAt: epoch))))
    }
    let list = try! PlaceList(id: ListID("l1"), name: "Groceries", createdAt: epoch)
    let task = try! ReminderTask(
      id: TaskID("t2"), title: "Buy milk", locations: [TaskLocation(id: LocationID("l1"), target: .place(PlaceID("p0")), radius: 150)], createdAt: epoch)
    try! store.append(
      places + [.put(.list(list)), .put(.task(task))] + ["p0", "p1"].map { .put(.membership(Membership(list: list.id, place: PlaceID($0)))) })
    try! store.compact()
    try! store.append([.put(.setting(key: "b", value: "2"))])
    store.close()
    var files: [String: [UInt8]] = [:]
    for name in try! FileManager.default.contentsOfDirectory(atPath: directory) where name != "LOCK" {
      files[name] = [UInt8](FileManager.default.contents(atPath: directory + "/" + name)!)
    }
    try? FileManager.default.removeItem(atPath: directory)
    return files
  }()

  static let directory = NSTemporaryDirectory() + "whilehere-fuzz-store-\(getpid())"
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStore(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzStore", count) }
  guard count > 0 else { return 0 }
  let payload = Data(bytes: bytes + 1, count: count - 1)
  let directory = Template.directory
  try? FileManager.default.removeItem(atPath: directory)
  try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  var files = Template.files
  let selector = bytes[0] % 5
  switch selector {
  case 0: files["log-2"] = [UInt8](payload)
  case 1: files["manifest"] = [UInt8](payload)
  case 2: files["snapshot-2"] = [UInt8](payload)
  case 3: files = ["replica": Array("fuzz\n".utf8), "log": [UInt8](payload)]
  default: files["keys-2"] = sidecar(payload)
  }
  for (name, contents) in files { FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(contents)) }
  guard selector == 4 else {
    if let store = try? FileOperationStore(directory: directory, options: FileStoreOptions(access: .shared)) {
      _ = store.state().records(since: nil)
      _ = store.describe()
      store.close()
    }
    return 0
  }
  // What the CLI's part reads ask of a store opened lazily.
  let lazy = LazyFileStore(directory: directory) { try FileOperationStore(directory: directory, options: FileStoreOptions(access: .shared)) }
  defer { lazy.close() }
  _ = try? lazy.state(of: [.place(PlaceID("p0")), .task(TaskID("t2")), .list(ListID("l1"))])
  _ = try? lazy.taskKeys()
  _ = try? lazy.listKeys()
  _ = try? lazy.settingKeys(startingWith: "a")
  _ = try? lazy.tasks(near: Coordinate(latitude: 60.17, longitude: 24.94))
  _ = try? lazy.placeNames()
  _ = try? lazy.places(inList: ListID("l1"))
  _ = try? lazy.listCounts()
  return 0
}

/// The template's sidecar with everything after its first 20 bytes (its
/// header, the snapshot's length and checksum) replaced by `payload`, and
/// its checksum made right.
func sidecar(_ payload: Data) -> [UInt8] {
  var bytes = Array((Template.files["keys-2"] ?? []).prefix(20)) + [UInt8](payload)
  let crc = CRC32.checksum(bytes)
  bytes += (0..<4).map { UInt8((crc >> (8 * UInt32($0))) & 0xFF) }
  return bytes
}

/// With WHILEHERE_FUZZ_SEEDS set, writes the valid files, each behind its selector byte.
@_cdecl("LLVMFuzzerInitialize")
public func initializeStore(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>>>) -> CInt {
  guard let seeds = ProcessInfo.processInfo.environment["WHILEHERE_FUZZ_SEEDS"] else { return 0 }
  let files = Template.files
  for (selector, name) in [(0, "log-2"), (1, "manifest"), (2, "snapshot-2")] {
    guard let contents = files[name] else { continue }
    FileManager.default.createFile(atPath: "\(seeds)/template-\(name)", contents: Data([UInt8(selector)] + contents))
  }
  if let keys = files["keys-2"], keys.count > 24 {
    // The sidecar's body, without what the harness puts back (its first 20 bytes and its checksum).
    FileManager.default.createFile(atPath: "\(seeds)/template-keys-2", contents: Data([4] + keys[20..<(keys.count - 4)]))
  }
  if let log = files["log-2"] {
    // A legacy log: version 2 in its header.
    var legacy = log
    legacy[6] = 2
    FileManager.default.createFile(atPath: "\(seeds)/template-legacy-log", contents: Data([3] + legacy))
  }
  return 0
}

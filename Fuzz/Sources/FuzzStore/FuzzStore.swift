import Domain
import FileStore
import Foundation
import FuzzBounds
import Persistence

/// A store directory copied from somewhere (a backup, another machine, a
/// damaged disk): opened for reading, it gives its state or a StoreError,
/// never a crash. The first byte picks the file the rest replaces in a valid
/// compacted store: 0 its log, 1 its manifest, 2 its snapshot, 3 the log of
/// a store from before manifests.
enum Template {
  /// The files of a valid store: a snapshot of two records, a log of one more.
  static let files: [String: [UInt8]] = {
    let directory = NSTemporaryDirectory() + "whilehere-fuzz-template-\(getpid())"
    try? FileManager.default.removeItem(atPath: directory)
    let store = try! FileOperationStore(directory: directory, newReplica: try! ReplicaID("fuzz"))
    try! store.append([.put(.setting(key: "a", value: "1")), .delete(.task(TaskID("t1")))])
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
  switch bytes[0] % 4 {
  case 0: files["log-2"] = [UInt8](payload)
  case 1: files["manifest"] = [UInt8](payload)
  case 2: files["snapshot-2"] = [UInt8](payload)
  default: files = ["replica": Array("fuzz\n".utf8), "log": [UInt8](payload)]
  }
  for (name, contents) in files { FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(contents)) }
  if let store = try? FileOperationStore(directory: directory, options: FileStoreOptions(access: .shared)) {
    _ = store.state().records(since: nil)
    _ = store.describe()
    store.close()
  }
  return 0
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
  if let log = files["log-2"] {
    // A legacy log: version 2 in its header.
    var legacy = log
    legacy[6] = 2
    FileManager.default.createFile(atPath: "\(seeds)/template-legacy-log", contents: Data([3] + legacy))
  }
  return 0
}

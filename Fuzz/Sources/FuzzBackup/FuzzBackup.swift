import Domain
import Foundation
import FuzzBounds
import Persistence
import Sync

/// A backup archive, which may come from another machine: its contents or
/// an error, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBackup(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzBackup", count) }
  _ = try? BackupArchive.decode(Data(bytes: bytes, count: count))
  return 0
}

/// With WHILEHERE_FUZZ_SEEDS set, writes an archive the current encoder
/// makes into that directory first (its checksums are right, so mutations
/// reach past the header).
@_cdecl("LLVMFuzzerInitialize")
public func initializeBackup(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>>>) -> CInt {
  guard let directory = ProcessInfo.processInfo.environment["WHILEHERE_FUZZ_SEEDS"] else { return 0 }
  let replica = try! ReplicaID("fuzz")
  let records = [
    OperationRecord(stamp: HLCTimestamp(wallMillis: 1_780_000_000_000, counter: 0, replica: replica), operation: .put(.setting(key: "k", value: "v"))),
    OperationRecord(stamp: HLCTimestamp(wallMillis: 1_780_000_000_001, counter: 1, replica: replica), operation: .delete(.task(TaskID("t1")))),
  ]
  if let archive = try? BackupArchive.encode(records, replica: replica, created: Date(timeIntervalSince1970: 1_780_000_000)) {
    FileManager.default.createFile(atPath: "\(directory)/archive", contents: archive)
  }
  return 0
}

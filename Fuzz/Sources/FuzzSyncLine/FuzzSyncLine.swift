import Domain
import Foundation
import FuzzBounds
import Persistence
import Sync

/// One line of a sync segment, which arrives from other machines: a record
/// that decodes encodes and decodes back to itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSyncLine(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzSyncLine", count) }
  guard case .success(let record) = SegmentLine.decode(Data(bytes: bytes, count: count)) else { return 0 }
  guard let encoded = try? SegmentLine.encode(record) else { fatalError("a decoded record does not encode: \(record)") }
  // The encoder writes a whole line; the decoder reads one without its newline.
  guard encoded.last == 0x0A else { fatalError("an encoded record does not end its line: \(String(decoding: encoded, as: UTF8.self))") }
  let line = encoded.dropLast()
  guard case .success(let again) = SegmentLine.decode(Data(line)) else { fatalError("an encoded record does not decode: \(String(decoding: line, as: UTF8.self))") }
  if again != record { fatalError("round trip changed the record: \(record) → \(again)") }
  return 0
}

/// With WHILEHERE_FUZZ_SEEDS set, writes lines the current encoder makes
/// into that directory first, so the corpus starts from the real format.
@_cdecl("LLVMFuzzerInitialize")
public func initializeSyncLine(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>>>) -> CInt {
  guard let directory = ProcessInfo.processInfo.environment["WHILEHERE_FUZZ_SEEDS"] else { return 0 }
  for (index, record) in SeedRecords.all.enumerated() {
    // As a segment reader hands lines to the decoder: without the newline.
    if let line = try? SegmentLine.encode(record) { FileManager.default.createFile(atPath: "\(directory)/line-\(index)", contents: line.dropLast()) }
  }
  return 0
}

enum SeedRecords {
  static let replica = try! ReplicaID("fuzz")
  static func stamp(_ millis: Int64) -> HLCTimestamp { HLCTimestamp(wallMillis: millis, counter: 0, replica: replica) }
  static let all = [
    OperationRecord(stamp: stamp(1_780_000_000_000), operation: .put(.setting(key: "k", value: "v"))),
    OperationRecord(stamp: stamp(1_780_000_000_001), operation: .delete(.task(TaskID("t1")))),
    OperationRecord(stamp: stamp(1_780_000_000_002), operation: .delete(.place(PlaceID("p1")))),
  ]
}

import Foundation
import Persistence

/// Batches of records as JSON arrays inside frames.
enum RecordCodec {
  static func encode(_ records: [OperationRecord]) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // Every field of every record is a plain value; encoding cannot fail.
    return Array(try! encoder.encode(records))
  }

  static func decode(_ bytes: UnsafeRawBufferPointer, path: String, offset: Int) throws -> [OperationRecord] {
    do {
      return try JSONDecoder().decode([OperationRecord].self, from: Data(bytes))
    } catch {
      throw StoreError.corrupt(
        path: path, offset: UInt64(offset), reason: "record has a valid checksum but does not decode (\(error))")
    }
  }
}

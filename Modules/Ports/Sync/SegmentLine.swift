import Domain
import Foundation
import Persistence

/// One record as a line of text, checked: `CRC32HEX JSON\n`. A line that
/// is cut short or changed fails its check and is not applied, so
/// half-written segment files and archives are detected, not trusted.
public enum SegmentLine {
  public static func encode(_ record: OperationRecord) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    let json = try encoder.encode(record)
    return Data((String(format: "%08x", CRC32.checksum([UInt8](json))) + " ").utf8) + json + Data([0x0A])
  }

  /// The record on a complete line (without its newline), or why not.
  public static func decode(_ line: Data) -> Result<OperationRecord, SyncError> {
    guard line.count > 9, line[line.startIndex + 8] == 0x20,
      let expected = UInt32(String(decoding: line.prefix(8), as: UTF8.self), radix: 16)
    else { return .failure(SyncError("not a checked record line")) }
    let json = line.dropFirst(9)
    guard CRC32.checksum([UInt8](json)) == expected else { return .failure(SyncError("checksum mismatch")) }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    do {
      return .success(try decoder.decodeOutside(OperationRecord.self, from: Data(json)))
    } catch let error as DecodingError {
      return .failure(SyncError("not an operation record (\(Self.reason(error)))"))
    } catch {
      return .failure(SyncError("not an operation record"))
    }
  }

  /// What a decoder found wrong, and where in the record, in a few words.
  static func reason(_ error: DecodingError) -> String {
    switch error {
    case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      let detail: String
      if case .keyNotFound(let key, _) = error { detail = "missing \(key.stringValue)" } else { detail = context.debugDescription }
      return path.isEmpty ? detail : "\(path): \(detail)"
    @unknown default:
      return "\(error)"
    }
  }
}

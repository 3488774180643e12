import Domain
import Foundation
import Persistence

/// `whilehere backup`: one self-describing, checksummed file. Line 1 is a
/// header (`{"format":"whilehere-backup","version":2,…}`), then one checked
/// record line per record (`SegmentLine`), then a trailer with the count
/// and the CRC-32 of everything before it. Anything cut short, changed or
/// patched together is refused before a single record is merged.
public enum BackupArchive {
  public static let format = "whilehere-backup"
  /// 2 added field updates and tag records; version 1 archives read the same.
  public static let version = 2

  struct Header: Codable {
    let format: String
    let version: Int
    let replica: String
    let created: Date
    let records: Int
  }

  struct Trailer: Codable {
    let end: Int
    let checksum: String
  }

  public struct Contents: Sendable {
    public let replica: String
    public let created: Date
    public let records: [OperationRecord]
  }

  public static func encode(_ records: [OperationRecord], replica: ReplicaID, created: Date) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    var data = try encoder.encode(Header(format: format, version: version, replica: replica.rawValue, created: created, records: records.count))
    data.append(0x0A)
    for record in records { data.append(try SegmentLine.encode(record)) }
    data.append(try encoder.encode(Trailer(end: records.count, checksum: String(format: "%08x", CRC32.checksum([UInt8](data))))))
    data.append(0x0A)
    return data
  }

  /// The archive's records, or an error naming the line and what is wrong.
  public static func decode(_ data: Data) throws(SyncError) -> Contents {
    let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    guard let first = lines.first, let header = try? decoder.decodeOutside(Header.self, from: Data(first)), header.format == format else {
      throw SyncError("not a WhileHere backup (line 1 is not its header)")
    }
    guard header.version <= version else {
      throw SyncError("backup format version \(header.version) is newer than this build reads (\(version)); upgrade whilehere")
    }
    guard header.records >= 0, lines.count >= header.records + 2 else {
      throw SyncError("the archive ends early: the header promises \(header.records) records, the file holds \(max(0, lines.count - 2))")
    }
    let trailerIndex = header.records + 1
    guard let trailer = try? decoder.decodeOutside(Trailer.self, from: Data(lines[trailerIndex])), trailer.end == header.records
    else {
      throw SyncError("the archive ends early or was cut: line \(trailerIndex + 1) is not its trailer")
    }
    guard lines.count == trailerIndex + 2, lines[trailerIndex + 1].isEmpty else {
      throw SyncError("the archive has text after its trailer (line \(trailerIndex + 2))")
    }
    let covered = lines[0..<trailerIndex].reduce(0) { $0 + $1.count + 1 }
    guard String(format: "%08x", CRC32.checksum([UInt8](data.prefix(covered)))) == trailer.checksum else {
      throw SyncError("the archive's checksum does not match: it was changed or damaged")
    }
    var records: [OperationRecord] = []
    for index in 1...max(1, header.records) where index <= header.records {
      switch SegmentLine.decode(Data(lines[index])) {
      case .success(let record): records.append(record)
      case .failure(let error): throw SyncError("line \(index + 1): \(error.reason)")
      }
    }
    return Contents(replica: header.replica, created: header.created, records: records)
  }
}

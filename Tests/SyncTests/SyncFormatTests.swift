import Domain
import Foundation
import Persistence
import Sync
import Testing
import TestSupport

@Suite struct SyncFormatTests {
  static let replica = try! ReplicaID("replica-a")
  static func records(_ count: Int) -> [OperationRecord] {
    (0..<count).map { index in
      OperationRecord(
        stamp: HLCTimestamp(wallMillis: Int64(1_000 + index), counter: 0, replica: replica),
        operation: index % 3 == 2 ? .delete(.list(ListID("g\(index)"))) : .put(.task(Fixtures.task("t\(index)", title: "Task ü \(index)"))))
    }
  }

  @Test func anArchiveRoundTrips() throws {
    let records = Self.records(7)
    let data = try BackupArchive.encode(records, replica: Self.replica, created: Fixtures.epoch)
    let contents = try BackupArchive.decode(data)
    #expect(contents.records == records)
    #expect(contents.replica == "replica-a")
    #expect(contents.created == Fixtures.epoch)
  }

  /// Cut anywhere, it is refused; never a crash, never a partial merge.
  @Test func everyTruncationIsRefused() throws {
    let data = try BackupArchive.encode(Self.records(4), replica: Self.replica, created: Fixtures.epoch)
    for length in 0..<data.count {
      #expect(throws: SyncError.self) { try BackupArchive.decode(data.prefix(length)) }
    }
  }

  @Test func aChangedByteIsRefused() throws {
    let data = try BackupArchive.encode(Self.records(4), replica: Self.replica, created: Fixtures.epoch)
    var refused = 0
    for index in stride(from: 0, to: data.count, by: 7) {
      var changed = data
      changed[index] = changed[index] == 0x41 ? 0x42 : 0x41
      if (try? BackupArchive.decode(changed)) == nil { refused += 1 }
    }
    #expect(refused == (data.count + 6) / 7)
  }

  @Test func aForgedRecordWithAGoodLineCheckIsStillRefused() throws {
    var records = Self.records(3)
    let data = try BackupArchive.encode(records, replica: Self.replica, created: Fixtures.epoch)
    records[1] = OperationRecord(stamp: records[1].stamp, operation: .put(.setting(key: "forged", value: "yes")))
    let forgedLine = try SegmentLine.encode(records[1])
    var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false).map { Data($0) }
    lines[2] = forgedLine.dropLast()
    let forged = Data(lines.joined(separator: [0x0A]))
    do {
      _ = try BackupArchive.decode(forged)
      Issue.record("a patched archive was accepted")
    } catch {
      #expect(error.reason.contains("checksum"))
    }
  }

  @Test func aNewerFormatAndOtherFilesAreNamed() throws {
    do {
      _ = try BackupArchive.decode(Data(#"{"created":"2026-01-01T00:00:00Z","format":"whilehere-backup","records":0,"replica":"x","version":9}"#.utf8 + [0x0A]))
      Issue.record("accepted")
    } catch {
      #expect(error.reason.contains("version 9"))
    }
    #expect(throws: SyncError.self) { try BackupArchive.decode(Data("PK\u{3}\u{4} a zip file".utf8)) }
  }

  @Test func segmentLinesCatchDamage() throws {
    let line = try SegmentLine.encode(Self.records(1)[0]).dropLast()
    guard case .success = SegmentLine.decode(Data(line)) else {
      Issue.record("a good line was refused")
      return
    }
    for length in [0, 5, 9, line.count - 1] {
      if case .success = SegmentLine.decode(Data(line.prefix(length))) { Issue.record("a line cut to \(length) bytes was accepted") }
    }
  }

  /// A line whose check is right but whose record is not one (a newer or
  /// hostile writer) is refused with what is wrong in it.
  @Test func aWellCheckedLineWithABadRecordSaysWhatIsWrong() {
    let json = Data(#"{"fields":["colour"],"list":{"createdAt":"2026-01-01T00:00:00Z","id":"g","name":"G"},"op":"put","t":"001780000000000-000000-x"}"#.utf8)
    let line = Data((String(format: "%08x", CRC32.checksum([UInt8](json))) + " ").utf8) + json
    guard case .failure(let error) = SegmentLine.decode(line) else {
      Issue.record("an update of a field lists do not have was accepted")
      return
    }
    #expect(error.reason.contains("fields") && error.reason.contains("colour"), "\(error.reason)")
  }

  /// Found by FuzzBackup's ten-minute run: a first line of 513 `[` made
  /// Foundation's decoder crash while describing where it gave up.
  @Test(arguments: [Data(repeating: UInt8(ascii: "["), count: 513), Data("{\"format\":[[[[[[[[[[]]]]]]]]]]}\n".utf8)])
  func deeplyNestedLinesAreRefusedNotACrash(_ data: Data) {
    #expect(throws: SyncError.self) { try BackupArchive.decode(data) }
  }
}

/// What belongs to one device's engine stays on it.
@Suite struct SyncScopeTests {
  @Test func anEnginesOwnSettingsDoNotTravelAndTheRestDoes() {
    func record(_ key: String) -> OperationRecord {
      OperationRecord(stamp: HLCTimestamp(wallMillis: 1, counter: 0, replica: SyncFormatTests.replica), operation: .put(.setting(key: key, value: "x")))
    }
    #expect(!SyncScope.travels(record("tracking.budget")))
    #expect(!SyncScope.travels(record("arrival.visits")))
    #expect(!SyncScope.travels(record("local.sync.folder:/x.cursor")))
    #expect(SyncScope.travels(record("history.reminders")))
  }
}

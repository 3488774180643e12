import Domain
import Foundation
import Testing
import TestSupport

@testable import Persistence

@Suite struct RecordCodecTests {
  static var sample: [OperationRecord] {
    var task = Fixtures.task("t1")
    task.notes = "2 litres, oat ü"
    task.keywords = ["milk", "maito"]
    task.locations.append(TaskLocation(id: LocationID("l2"), target: .place(PlaceID("p1")), radius: 80.5, enabled: false))
    var snoozed = Fixtures.task("t2")
    snoozed.state = .snoozed(until: Date(timeIntervalSinceReferenceDate: 123_456.789))
    var done = Fixtures.task("t3")
    done.state = .completed(at: Date())
    var place = Fixtures.place("p1")
    place.personal.tags = ["grocery", "late"]
    place.personal.address = "Mannerheimintie 20"
    place.provider = ProviderPlaceData(
      ref: "osm:node/609682415", name: "Alepa", coordinate: Fixtures.helsinki, address: nil, category: "shop=convenience",
      fetchedAt: Date(), expiresAt: Date().addingTimeInterval(86_400))
    let operations: [StoreOperation] = [
      .put(.task(task)), .put(.task(snoozed)), .put(.task(done)), .put(.place(place)), .put(.place(Fixtures.place("p2"))),
      .put(.list(Fixtures.list("g1"))), .put(.membership(Membership(list: ListID("g1"), place: PlaceID("p1")))),
      .put(.setting(key: "budget", value: "{}")), .delete(.task(TaskID("t9"))), .delete(.place(PlaceID("p9"))),
      .delete(.list(ListID("g9"))), .delete(.membership(Membership(list: ListID("g1"), place: PlaceID("p2")))),
      .delete(.setting("old")),
      .put(.sourceEntry(SourceEntry(
        id: "e1", list: ListID("g1"), source: "Groceries.csv", line: 4, title: "S-market Sokos", note: "open 24h",
        state: .candidates([.init(ref: "osm:node/1", name: "S-Market Sokos Helsinki", coordinate: Fixtures.helsinki, category: "shop=supermarket", score: 0.9)])))),
      .delete(.sourceEntry("e2")),
    ]
    let whole = operations.enumerated().map { OperationRecord(stamp: Fixtures.stamp(Int64(1_780_000_000_000 + $0.offset), UInt32($0.offset), replica: "r-\($0.offset)"), operation: $0.element) }
    let tag = PlaceTag(place: PlaceID("p1"), name: "open late")
    var onlyOpen = task
    onlyOpen.onlyWhileOpen = true
    var withHours = place
    withHours.provider?.hours = "Mo-Sa 07:00-23:00; Su 10:00-22:00"
    return whole + [
      // Version 4: a task only for open hours, a provider's opening hours, whole and as updates.
      OperationRecord(stamp: Fixtures.stamp(1_785_000_000_000), operation: .put(.task(onlyOpen))),
      OperationRecord(stamp: Fixtures.stamp(1_785_000_000_001), operation: .put(.place(withHours))),
      OperationRecord(stamp: Fixtures.stamp(1_785_000_000_002), operation: .put(.task(onlyOpen)), fields: .bit(5)),
      OperationRecord(stamp: Fixtures.stamp(1_785_000_000_003), operation: .put(.place(withHours)), fields: .bit(4)),
      OperationRecord(stamp: Fixtures.stamp(1_790_000_000_000), operation: .put(.task(task)), fields: [.bit(1), .bit(4)]),
      OperationRecord(stamp: Fixtures.stamp(1_790_000_000_001), operation: .put(.place(place)), fields: .bit(4)),
      OperationRecord(stamp: Fixtures.stamp(1_790_000_000_002), operation: .put(.list(Fixtures.list("g1"))), fields: .bit(0)),
      OperationRecord(stamp: Fixtures.stamp(1_790_000_000_003), operation: .put(.tag(tag))),
      OperationRecord(stamp: Fixtures.stamp(1_790_000_000_004), operation: .delete(.tag(tag))),
    ]
  }

  /// An update mask naming a field its kind lacks, or none, is damage.
  @Test(arguments: [0, 2, 0x8000] as [UInt16])
  func anUpdateOfFieldsTheKindLacksIsRefused(mask: UInt16) throws {
    // A list has one field; bit 1 and above do not exist.
    let record = OperationRecord(stamp: Fixtures.stamp(1), operation: .put(.list(Fixtures.list("g1"))), fields: EntityFields(rawValue: mask))
    let bytes = RecordCodec.encode([record])
    #expect {
      try bytes.withUnsafeBytes { try RecordCodec.decode($0, path: "log", offset: 8) }
    } throws: { error in
      String(describing: error).contains("does not have")
    }
  }

  /// Only what uses them is written with version 4's tags, so a store that
  /// never uses them writes what version 3 wrote.
  @Test func onlyTasksAndPlacesThatUseThemAreWrittenWithVersion4sTags() throws {
    var task = Fixtures.task("t1")
    let plain = RecordCodec.encode([OperationRecord(stamp: Fixtures.stamp(1), operation: .put(.task(task)))])
    task.onlyWhileOpen = true
    let flagged = RecordCodec.encode([OperationRecord(stamp: Fixtures.stamp(1), operation: .put(.task(task)))])
    #expect(flagged.count == plain.count + 1, "one flags byte more")
    #expect(plain.contains(RecordCodec.Tag.putTask.rawValue) && flagged.contains(RecordCodec.Tag.putTaskV4.rawValue))
  }

  /// A flag a later version added is refused as damage, never dropped.
  @Test func aTaskFlagThisBuildDoesNotKnowIsRefused() throws {
    var task = Fixtures.task("t1")
    task.onlyWhileOpen = true
    var bytes = RecordCodec.encode([OperationRecord(stamp: Fixtures.stamp(1), operation: .put(.task(task)))])
    #expect(bytes.last == 1)
    bytes[bytes.count - 1] = 3
    #expect {
      try bytes.withUnsafeBytes { try RecordCodec.decode($0, path: "log", offset: 8) }
    } throws: { error in
      String(describing: error).contains("unknown task flags 3")
    }
  }

  @Test func everyOperationRoundTripsExactly() throws {
    let records = Self.sample
    let bytes = RecordCodec.encode(records)
    let decoded = try bytes.withUnsafeBytes { try RecordCodec.decode($0, path: "p", offset: 0) }
    #expect(decoded == records)
  }

  /// Text is checked as UTF-8 whatever its length and wherever a bad byte
  /// sits (plain ASCII takes a faster path than other text): valid text of
  /// every length and script comes back as written, and a bad byte at any
  /// place in a title, after an ASCII run or not, is refused as damage.
  @Test func textOfEveryLengthRoundTripsAndBadUTF8AnywhereIsRefused() throws {
    for length in 0..<20 {
      for tail in ["", "ü", "Kauppatori – Salutorget", "🥛"] where length > 0 || !tail.isEmpty {
        var task = Fixtures.task("t1")
        task.title = String(repeating: "a", count: length) + tail
        let record = OperationRecord(stamp: Fixtures.stamp(1), operation: .put(.task(task)))
        let bytes = RecordCodec.encode([record])
        let decoded = try bytes.withUnsafeBytes { try RecordCodec.decode($0, path: "log", offset: 0) }
        #expect(decoded == [record])
        // The title as written: its length, then its bytes.
        let written = [UInt8(task.title.utf8.count)] + Array(task.title.utf8)
        let start = try #require(bytes.firstRange(of: written)?.lowerBound) + 1
        for position in start..<(start + task.title.utf8.count) {
          var broken = bytes
          broken[position] = 0xFF
          #expect(throws: (any Error).self, "a bad byte at \(position - start) of a \(task.title.utf8.count)-byte title") {
            try broken.withUnsafeBytes { try RecordCodec.decode($0, path: "log", offset: 0) }
          }
        }
      }
    }
  }

  @Test func hostileBytesAreRefusedNeverCrash() throws {
    let valid = RecordCodec.encode(Self.sample)
    var generator = SystemRandomNumberGenerator()
    var refused = 0
    for round in 0..<3000 {
      var bytes = valid
      switch round % 3 {
      case 0: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
      case 1:
        for _ in 0..<Int.random(in: 1...8, using: &generator) {
          bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
        }
      default: bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
      }
      do {
        _ = try bytes.withUnsafeBytes { try RecordCodec.decode($0, path: "p", offset: 0) }
      } catch let error as StoreError {
        guard case .corrupt = error else { throw error }
        refused += 1
      }
    }
    #expect(refused > 1500, "most damaged payloads must be refused (\(refused))")
  }

  @Test func aHugeDeclaredLengthIsRefusedWithoutAllocating() {
    // Count 2^62 followed by nothing.
    let bytes: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x3F]
    #expect(throws: StoreError.self) { try bytes.withUnsafeBytes { try RecordCodec.decode($0, path: "p", offset: 0) } }
  }
}

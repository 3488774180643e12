import Domain
import Foundation
import Persistence
import Testing
import TestSupport

@Suite struct OperationRecordCodingTests {
  static let records: [OperationRecord] = [
    OperationRecord(stamp: Fixtures.stamp(1), operation: .put(.task(Fixtures.task("t1")))),
    OperationRecord(stamp: Fixtures.stamp(2), operation: .put(.place(Fixtures.place("p1")))),
    OperationRecord(stamp: Fixtures.stamp(3), operation: .put(.list(Fixtures.list("g1")))),
    OperationRecord(stamp: Fixtures.stamp(4), operation: .put(.membership(Membership(list: ListID("g1"), place: PlaceID("p1"))))),
    OperationRecord(stamp: Fixtures.stamp(5), operation: .put(.setting(key: "budget/used", value: "30"))),
    OperationRecord(stamp: Fixtures.stamp(6), operation: .delete(.membership(Membership(list: ListID("g1"), place: PlaceID("p1"))))),
    OperationRecord(stamp: Fixtures.stamp(7), operation: .delete(.setting("budget/used"))),
    OperationRecord(stamp: Fixtures.stamp(8), operation: .put(.sourceEntry(SourceEntry(
      id: "e1", list: ListID("g1"), source: "Want to go.csv", line: 3, title: "Café Ekberg", note: "", state: .matched(PlaceID("p1")), decided: true)))),
    OperationRecord(stamp: Fixtures.stamp(9), operation: .delete(.sourceEntry("e1"))),
    OperationRecord(stamp: Fixtures.stamp(10), operation: .put(.task(Fixtures.task("t1"))), fields: [.bit(0), .bit(3)]),
    OperationRecord(stamp: Fixtures.stamp(11), operation: .put(.place(Fixtures.place("p1"))), fields: .bit(4)),
    OperationRecord(stamp: Fixtures.stamp(12), operation: .put(.list(Fixtures.list("g1"))), fields: .bit(0)),
    OperationRecord(stamp: Fixtures.stamp(13), operation: .put(.tag(PlaceTag(place: PlaceID("p1"), name: "open late/24h")))),
    OperationRecord(stamp: Fixtures.stamp(14), operation: .delete(.tag(PlaceTag(place: PlaceID("p1"), name: "café")))),
  ]

  @Test(arguments: records)
  func roundTripsThroughJSON(_ record: OperationRecord) throws {
    let data = try JSONEncoder().encode(record)
    #expect(try JSONDecoder().decode(OperationRecord.self, from: data) == record)
  }

  @Test func anUpdateNamesItsFields() throws {
    let text = String(decoding: try JSONEncoder().encode(Self.records[9]), as: UTF8.self)
    #expect(text.contains(#""fields":["title","state"]"#))
  }

  /// A field the entity's kind does not have, an empty list, or fields on a
  /// kind that is only written whole: refused, naming what was wrong.
  @Test(arguments: [
    #""fields":["colour"],"list":{"id":"g","name":"G","createdAt":0}"#,
    #""fields":[],"list":{"id":"g","name":"G","createdAt":0}"#,
    #""fields":["name"],"membership":{"list":"g","place":"p"}"#,
  ])
  func refusesFieldsThatDoNotExist(_ body: String) {
    let json = #"{"t":"000000000000001-000000-remote","op":"put","# + body + "}"
    #expect {
      try JSONDecoder().decode(OperationRecord.self, from: Data(json.utf8))
    } throws: { error in
      String(describing: error).contains("fields")
    }
  }

  @Test(arguments: [#"{"place":"","name":"cafe"}"#, #"{"place":"p/1","name":"cafe"}"#, #"{"place":"p1","name":""}"#])
  func refusesATagThatNoStoreWrites(_ tag: String) {
    let json = #"{"t":"000000000000001-000000-remote","op":"put","tag":"# + tag + "}"
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(OperationRecord.self, from: Data(json.utf8)) }
  }

  @Test func refusesAnUnknownOperation() {
    let json = #"{"t":"000000000000001-000000-remote","op":"drop","key":"task/x"}"#
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(OperationRecord.self, from: Data(json.utf8)) }
  }

  @Test func refusesAnInvalidCoordinateInsideARecord() {
    let json = #"{"t":"000000000000001-000000-remote","op":"put","place":{"id":"p","createdAt":0,"personal":{"tags":[],"note":"","coordinate":{"lat":95,"lon":0}}}}"#
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(OperationRecord.self, from: Data(json.utf8)) }
  }
}

import Foundation
import Importing
import Testing
import TestSupport

@Suite struct TakeoutListTests {
  let directory = TemporaryDirectory()

  func parse(_ text: String) throws -> TakeoutList {
    try TakeoutList.parse(Data(text.utf8), file: "list.csv", name: "list")
  }

  @Test func readsTheTagsLayoutWithDescriptionMultilineNotesAndDuplicates() throws {
    let list = try parse(#"""
      Food shops / ruokakaupat

      Title,Note,URL,Tags,Comment
      ,,,,
      S-market Sokos,"open 24h, basement",https://www.google.com/maps/place/S-market+Sokos/data=x,,
      Lidl,"line one
      line ""two""",https://x,,
      S-market Sokos,"open 24h, basement",https://www.google.com/maps/place/S-market+Sokos/data=x,,

      """#)
    #expect(list.description == "Food shops / ruokakaupat")
    #expect(list.rows.map(\.title) == ["S-market Sokos", "Lidl", "S-market Sokos"])
    #expect(list.rows[1].note == "line one\nline \"two\"")
    #expect(list.rows.map(\.number) == [1, 2, 3])
    #expect(list.rows[2].line == 8)
  }

  @Test(arguments: ["Title,Note,URL\nA,,u\n", "Title,Note,URL,Comment\nA,,u,\n", "\u{FEFF}Title,Note,URL,Tags,Comment\r\nA,,u,,\r\n"])
  func acceptsEveryHeaderVariant(_ text: String) throws {
    #expect(try parse(text).rows.map(\.title) == ["A"])
  }

  @Test(arguments: [
    ("Title,Note,URL\nA,\"never closed,u\n", "list.csv:2: a quoted field is never closed"),
    ("Name,Address\nA,B\n", "no 'Title,Note,URL…' header"),
    ("Title,Note,URL\nA,b,c,d,e\n", "list.csv:2: 5 fields, the header has 3"),
    ("Title,Note,URL\n,note only,u\n", "list.csv:2: a row without a title"),
  ])
  func hostileInputIsNamedWithTheLine(_ text: String, _ message: String) {
    let error = #expect(throws: ImportError.self) { try parse(text) }
    #expect(error?.description.contains(message) == true, "\(String(describing: error))")
  }

  @Test func binaryJunkAndWrongEncodingsAreRefused() {
    #expect(throws: ImportError.self) { try TakeoutList.parse(Data([0xFF, 0xFE, 0x00, 0x54, 0x00]), file: "x.csv", name: "x") }
    let latin1 = "Title,Note,URL\nCaf\u{e9},,u\n".data(using: .isoLatin1)!
    let error = #expect(throws: ImportError.self) { try TakeoutList.parse(latin1, file: "x.csv", name: "x") }
    #expect(error?.message.contains("not UTF-8") == true)
  }

  @Test func aHugeFileIsRefusedBeforeReading() throws {
    let path = directory.file("huge.csv")
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.truncate(atOffset: UInt64(TakeoutList.maxBytes + 1))
    try handle.close()
    let error = #expect(throws: ImportError.self) { try TakeoutList.read(path) }
    #expect(error?.message.contains("too large") == true)
  }
}

@Suite struct SavedPlacesTests {
  @Test(.enabled(if: SharedData.available, "needs ../shared/data beside the project"), arguments: ["Saved Places.json", "variants/Saved Places.new-format.json"])
  func readsBothLayoutsAndKeepsPlacesWithoutALocation(_ name: String) throws {
    let path = "../shared/data/takeout/" + name
    try #require(FileManager.default.fileExists(atPath: path), "needs ../shared/data/takeout")
    let list = try TakeoutList.read(path)
    #expect(list.rows.count >= 10)
    #expect(list.rows[0].title == "Hotel Kämp")
    #expect(list.rows[0].coordinate?.latitude == 60.1682603)
    #expect(list.rows[0].address?.contains("Pohjoisesplanadi 29") == true)
    if name.contains("new-format") { #expect(list.rows.contains { $0.coordinate == nil }, "the entry with no location is kept") }
  }

  @Test func coordinatesOutOfRangeAreNamed() throws {
    let json = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[24.9,95.0]},"properties":{"Title":"Nowhere"}}]}"#
    let directory = TemporaryDirectory()
    let path = directory.write("Saved Places.json", json)
    let read = #expect(throws: ImportError.self) { try TakeoutList.read(path) }
    #expect(read?.message.contains("feature 0 ('Nowhere') has coordinates out of range") == true)
  }

  /// GeoJSON saved as .json (as `whilehere export geojson` writes it, or
  /// another tool) keeps its places' names; a Google file is still read as
  /// Google's, and a feature of Google's among plain ones keeps the file Google's.
  @Test func plainGeoJSONSavedAsJSONKeepsItsNames() throws {
    let directory = TemporaryDirectory()
    let plain = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[24.94,60.17]},"properties":{"name":"Kiosk Esplanadi","note":"by the stage"}}]}"#
    let list = try TakeoutList.read(directory.write("places.json", plain))
    #expect(list.rows.map(\.title) == ["Kiosk Esplanadi"])
    #expect(list.rows.first?.note == "by the stage")
    #expect(list.rows.first?.coordinate?.latitude == 60.17)
    let google = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[24.94,60.17]},"properties":{"name":"ignored","Title":"Hotel Kämp"}}]}"#
    #expect(try TakeoutList.read(directory.write("Saved Places.json", google)).rows.map(\.title) == ["Hotel Kämp"])
    let mixed = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[24.94,60.17]},"properties":{"name":"A"}},{"type":"Feature","geometry":{"type":"Point","coordinates":[24.95,60.16]},"properties":{"location":{"name":"B"}}}]}"#
    #expect(try TakeoutList.read(directory.write("mixed.json", mixed)).rows.map(\.title) == ["Saved place 1 (no name)", "B"])
  }

  /// A file cut short says it is not JSON and where it broke off, and one
  /// nested past any real export is refused the same way, without a crash.
  @Test func aTruncatedOrDeepFileSaysWhereItStopsBeingJSON() throws {
    let directory = TemporaryDirectory()
    let cut = directory.write("Saved Places.json", #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"Title":"Kämp"#)
    let truncated = #expect(throws: ImportError.self) { try TakeoutList.read(cut) }
    #expect(truncated?.message.contains("not JSON") == true && truncated?.message.contains("at byte") == true, "\(String(describing: truncated))")
    let deep = directory.write("Saved Places 2.json", #"{"features":"# + String(repeating: "[", count: 10_000))
    let nested = #expect(throws: ImportError.self) { try TakeoutList.read(deep) }
    #expect(nested?.message.contains("not JSON") == true, "\(String(describing: nested))")
  }
}

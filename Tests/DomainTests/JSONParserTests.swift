import Domain
import Foundation
import Testing

@Suite struct JSONParserTests {
  func parse(_ text: String) throws(JSONParser.Failure) -> JSONValue { try JSONParser.parse(Data(text.utf8)) }

  @Test(arguments: [
    #"{"_type":"location","lat":60.1699,"lon":-24.9384e0,"tst":1780315200,"acc":12,"inregions":["Home","Työ"],"ok":true,"no":false,"x":null}"#,
    #"[]"#, #"{}"#, #" [ 1 , -0.5 , 2E+3 , "a\"b\\c\/d\b\f\n\r\t" ] "#, #""\u00e4\u20ac\ud83e\udd5b""#, #"0"#, #"-0"#,
    #"{"nested":{"deeper":[[[{"k":"v"}]]]}}"#,
  ])
  func agreesWithFoundation(text: String) throws {
    let ours = try parse(text)
    let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    #expect(ours == foundation)
  }

  @Test func readsEscapesAndUnicode() throws {
    #expect(try parse(#""\u00e4\ud83e\udd5b\n""#) == .string("ä🥛\n"))
    #expect(try parse(#"{"a":1,"a":2}"#) == .object(["a": .number(2)]), "the last of duplicate names wins")
  }

  /// Each refusal says what and where.
  @Test(arguments: [
    ("", "ends too early", 0), ("{", "member name", 1), (#"{"a" 1}"#, "':'", 5), (#"{"a":1,}"#, "member name", 7),
    ("[1,]", "unexpected character", 3), ("[1 2]", "',' or ']'", 3), ("01", "unexpected text", 1), ("1.", "digit after '.'", 2),
    ("-", "expected a digit", 1), ("1e", "exponent", 2), ("1e400", "out of range", 0), ("tru", "ends too early", 0),
    ("nul1", "unexpected character", 0), (#""abc"#, "not closed", 4), ("\"a\u{01}b\"", "control character", 2),
    (#""\x""#, "invalid escape", 3), (#""\ud83e""#, "lone UTF-16 surrogate", 7), (#""\udd5b""#, "lone UTF-16 surrogate", 7),
    (#""\u12G4""#, #"invalid \u escape"#, 5), ("{} {}", "unexpected text", 3), ("'a'", "unexpected character", 0),
  ] as [(String, String, Int)])
  func refuses(text: String, reason: String, offset: Int) {
    do {
      _ = try parse(text)
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.reason.contains(reason), "\(text): \(error)")
      #expect(error.offset == offset, "\(text): \(error)")
    }
  }

  @Test func refusesInvalidUTF8AndDeepNesting() throws {
    #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Data([0x22, 0xFF, 0xFE, 0x22])) }
    #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Data([0x22, 0x5C, 0x6E, 0xC3, 0x22])) }
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    do {
      _ = try parse(deep)
      Issue.record("a 100000-deep array was accepted")
    } catch {
      #expect(error.reason.contains("deeper than 64"))
    }
    #expect(try JSONParser.parse(Data((String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).utf8)) != .null)
  }

  static let sharedPOIs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/data/helsinki-pois.geojson").standardized.path

  /// A large real document (OpenStreetMap places) parses to exactly what Foundation reads.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: sharedPOIs))) func agreesWithFoundationOnRealData() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: Self.sharedPOIs))
    #expect(try JSONParser.parse(data) == (try JSONDecoder().decode(JSONValue.self, from: data)))
  }

  /// Every prefix of a real message is refused, never crashes.
  @Test func everyTruncationIsRefused() {
    let text = #"{"_type":"transition","wtst":1562499827,"lat":60.17,"event":"enter","desc":"Työ \u00e4","inrids":["a","b"]}"#
    let bytes = Array(text.utf8)
    for length in 0..<bytes.count {
      #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Data(bytes[0..<length])) }
    }
  }
}

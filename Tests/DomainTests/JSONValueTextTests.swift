import Domain
import Foundation
import Testing

/// `JSONValue.compactText`: what the daemon answers phones with.
@Suite struct JSONValueTextTests {
  @Test func keysSortedIntegersPlainSlashesKept() {
    let value = JSONValue.object([
      "rad": .number(150), "lat": .number(60.1699), "_type": .string("waypoint"), "desc": .string("a/b"), "on": .bool(true), "none": .null,
      "list": .array([.number(-1), .number(0.5), .number(1e-5)]),
    ])
    #expect(value.compactText == #"{"_type":"waypoint","desc":"a/b","lat":60.1699,"list":[-1,0.5,1e-05],"none":null,"on":true,"rad":150}"#)
  }

  @Test func stringsAreEscapedSoAnyNameIsSafe() {
    let tricky = "quote \" back \\ line\nreturn\r tab\t bell\u{07} ä €"
    let text = JSONValue.string(tricky).compactText
    #expect(text == #""quote \" back \\ line\nreturn\r tab\t bell\u0007 ä €""#)
  }

  /// Whatever is written reads back as the same value (the parser the
  /// daemon trusts for outside JSON), and Foundation agrees.
  @Test func whatIsWrittenReadsBack() throws {
    let values: [JSONValue] = [
      .object(["a": .array([.object(["b": .string("\u{01}x\u{1F}")]), .number(1_562_499_827), .number(-0.25)]), "": .null]),
      .array([]), .object([:]), .string(""), .number(24.93840001), .number(123_456_789_012_345),
    ]
    for value in values {
      let text = value.compactText
      #expect(try JSONParser.parse(Data(text.utf8)) == value, "\(text)")
      #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil, "\(text)")
    }
  }
}

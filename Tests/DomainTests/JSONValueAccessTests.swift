import Domain
import Foundation
import Testing

@Suite struct JSONValueAccessTests {
  @Test func accessorsAnswerOnlyForTheirOwnType() throws {
    let value = try JSONParser.parse(Data(#"[{"_type":"cmd","rad":150,"on":true,"tags":["a"]}]"#.utf8))
    let message = try #require(value.elements?.first?.members)
    #expect(message["_type"]?.stringValue == "cmd")
    #expect(message["rad"]?.numberValue == 150)
    #expect(message["on"]?.numberValue == nil)  // true is not 1
    #expect(message["rad"]?.stringValue == nil)
    #expect(message["tags"]?.elements == [.string("a")])
    #expect(value.members == nil)
  }

  @Test func literalsMakeTheValuesTheyRead() {
    let built: JSONValue = .object(["_type": "location", "bs": 1])
    #expect(built == .object(["_type": .string("location"), "bs": .number(1)]))
    #expect(built.compactText == #"{"_type":"location","bs":1}"#)
  }
}

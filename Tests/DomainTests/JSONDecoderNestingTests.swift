import Domain
import Foundation
import Testing

/// Foundation's decoder on Linux traps instead of throwing when its own
/// 512-level nesting limit is reached at the end of the input; every decode
/// of bytes from outside goes through `decodeOutside`, which refuses deep
/// nesting first and leaves everything else to the decoder.
@Suite struct JSONDecoderNestingTests {
  struct Credentials: Codable, Equatable {
    var name: String
    var password: String
  }

  @Test(arguments: [
    #"{"name":"# + String(repeating: "[", count: 512),
    String(repeating: "[", count: 513),
    String(repeating: #"{"a":"#, count: 600),
    String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
  ])
  func nestingPastTheLimitIsAnErrorNotACrash(text: String) {
    #expect(throws: DecodingError.self) { try JSONDecoder().decodeOutside(Credentials.self, from: Data(text.utf8)) }
  }

  @Test func theErrorSaysWhereTheNestingWentTooDeep() {
    let text = #"{"name":"# + String(repeating: "[", count: 100)
    do {
      _ = try JSONDecoder().decodeOutside(Credentials.self, from: Data(text.utf8))
      Issue.record("decoded")
    } catch DecodingError.dataCorrupted(let context) {
      // The object at byte 0 is level 1, the `[` at byte 8 level 2, so level 65 opens at byte 8 + 63.
      #expect(context.debugDescription == "nested deeper than 64 levels at byte 71")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func bracketsInsideStringsDoNotCount() throws {
    let deep = String(repeating: "[{", count: 300)
    let text = #"{"name":"\#(deep)","password":"a\"\\\#(deep)\\"}"#
    let decoded = try JSONDecoder().decodeOutside(Credentials.self, from: Data(text.utf8))
    #expect(decoded == Credentials(name: deep, password: "a\"\\\(deep)\\"))
  }

  @Test func nestingUpToTheLimitDecodesAsBefore() throws {
    let text = String(repeating: "[", count: 64) + "1" + String(repeating: "]", count: 64)
    #expect(try JSONDecoder().decodeOutside(JSONValue.self, from: Data(text.utf8)) == JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
  }
}

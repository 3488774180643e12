import Domain
import Foundation
import Testing

/// `JSONValue.overlaid`: a file's object laid over encoded defaults (config
/// sections, world files), and `prettyText`, how config files and exports
/// are written.
@Suite struct JSONValueOverlayTests {
  struct Defaults: Codable, Equatable {
    struct Inner: Codable, Equatable {
      var radius = 100.0
      var on = true
    }
    var name = "x"
    var inner = Inner()
    var list = [1, 2]
  }

  @Test func membersMergeAndLeavesOfTheSameTypeReplace() throws {
    let merged = try JSONValue(encoding: Defaults()).overlaid(
      with: ["inner": .object(["radius": .number(250)]), "list": .array([.number(7)])], path: "top")
    #expect(try merged.decoded(as: Defaults.self) == Defaults(name: "x", inner: .init(radius: 250, on: true), list: [7]))
  }

  @Test func anUnknownKeyOrAnotherTypeIsNamedByItsPath() throws {
    let base = try JSONValue(encoding: Defaults())
    #expect(throws: JSONValue.OverlayProblem.unknownKey(path: "top.inner.radus", known: ["top.inner.on", "top.inner.radius"])) {
      try base.overlaid(with: ["inner": .object(["radus": .number(1)])], path: "top")
    }
    #expect(throws: JSONValue.OverlayProblem.wrongType(path: "top.inner.on", expected: "a boolean")) {
      try base.overlaid(with: ["inner": .object(["on": .number(1)])], path: "top")
    }
    #expect(throws: JSONValue.OverlayProblem.wrongType(path: "inner", expected: "an object")) {
      try base.overlaid(with: ["inner": .string("no")], path: "")
    }
  }

  @Test func prettyTextIndentsSortsAndReadsBack() throws {
    let value = JSONValue.object([
      "b": .array([.number(1), .object(["z": .null, "a": .string("x/y")])]), "a": .object([:]), "c": .array([]),
    ])
    #expect(value.prettyText == """
      {
        "a": {},
        "b": [
          1,
          {
            "a": "x/y",
            "z": null
          }
        ],
        "c": []
      }

      """)
    #expect(try JSONParser.parse(Data(value.prettyText.utf8)) == value)
  }
}

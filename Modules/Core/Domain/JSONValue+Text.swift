extension JSONValue {
  /// Compact JSON text with keys sorted (the same bytes for the same
  /// value), `/` left as it is, and integral numbers written without a
  /// fraction ("150", not "150.0"). Written by hand: JSONSerialization
  /// with sorted keys compares keys through ICU and bridges every value,
  /// which made encoding a phone's waypoints a visible part of answering it.
  public var compactText: String {
    var text = ""
    write(into: &text)
    return text
  }

  /// The same text laid out for people: two spaces per level, one member
  /// or element per line, keys sorted (config files, exports).
  public var prettyText: String {
    var text = ""
    writePretty(into: &text, indent: "")
    return text + "\n"
  }

  func writePretty(into text: inout String, indent: String) {
    let inner = indent + "  "
    switch self {
    case .array(let values) where !values.isEmpty:
      text += "[\n"
      for (index, value) in values.enumerated() {
        text += inner
        value.writePretty(into: &text, indent: inner)
        text += index < values.count - 1 ? ",\n" : "\n"
      }
      text += indent + "]"
    case .object(let members) where !members.isEmpty:
      text += "{\n"
      let keys = members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
      for (index, key) in keys.enumerated() {
        text += inner
        Self.quote(key, into: &text)
        text += ": "
        members[key]!.writePretty(into: &text, indent: inner)
        text += index < keys.count - 1 ? ",\n" : "\n"
      }
      text += indent + "}"
    default: write(into: &text)
    }
  }

  func write(into text: inout String) {
    switch self {
    case .null: text += "null"
    case .bool(let value): text += value ? "true" : "false"
    case .number(let value): text += Self.number(value)
    case .string(let value): Self.quote(value, into: &text)
    case .array(let values):
      text += "["
      for (index, value) in values.enumerated() {
        if index > 0 { text += "," }
        value.write(into: &text)
      }
      text += "]"
    case .object(let members):
      text += "{"
      // Byte order of the UTF-8 keys, as JSONSerialization sorts ASCII keys.
      for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
        if index > 0 { text += "," }
        Self.quote(key, into: &text)
        text += ":"
        members[key]!.write(into: &text)
      }
      text += "}"
    }
  }

  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return value.description
  }

  static func quote(_ string: String, into text: inout String) {
    text += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}

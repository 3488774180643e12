import Foundation

/// A small pull reader for the XML that KML and GPX exports are: elements,
/// attributes, text, CDATA sections, comments, the five predefined entities
/// and character references. No document type declarations (exports have
/// none, and entity declarations are how XML bombs are built) and no
/// processing instructions besides the XML declaration.
///
/// It replaces Foundation's XMLParser, which on Linux crashed on four kinds
/// of input found by fuzzing (a processing instruction without data, an
/// element name that is not UTF-8, stopping at the first error inside its
/// first chunk) and leaked an object for every error it reported.
struct XMLReader {
  enum Event: Equatable {
    case start(name: String, attributes: [String: String])
    case end(name: String)
    case text(String)
  }

  struct Failure: Error, Equatable {
    let line: Int
    let message: String
  }

  private let bytes: [UInt8]
  private var index = 0
  /// The line the reader has reached (1-based): where the last event ended.
  private(set) var line = 1
  private var open: [String] = []
  private var pendingEnd: String?
  private var sawRoot = false

  /// The innermost element still open: at the end of the input, the one the file ends inside.
  var unclosed: String? { open.last }

  /// `bytes` must be UTF-8 (the caller checks, to say so in its own words).
  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  /// The next event; nil at the end of a well-formed document.
  mutating func next() throws(Failure) -> Event? {
    if let name = pendingEnd {
      pendingEnd = nil
      return end(name)
    }
    while index < bytes.count {
      if bytes[index] != Self.lt {
        let text = try characters()
        if open.isEmpty {
          guard text.allSatisfy(\.isWhitespace) else { throw fail(sawRoot ? "text after the root element" : "text before the first element") }
          continue
        }
        return .text(text)
      }
      if starts(with: "<!--") {
        index += 4
        try skip(past: "-->", what: "a comment")
      } else if starts(with: "<![CDATA[") {
        guard !open.isEmpty else { throw fail("a CDATA section outside the root element") }
        index += 9
        let start = index
        try skip(past: "]]>", what: "a CDATA section")
        return .text(Self.normalizingLineEnds(bytes[start..<(index - 3)]))
      } else if starts(with: "<?") {
        try declaration()
      } else if starts(with: "<!") {
        throw fail("a document type declaration (<!…>); KML and GPX exports have none")
      } else if starts(with: "</") {
        index += 2
        let name = try self.name()
        whitespace()
        try expect(Self.gt, "'>' to close </\(name)")
        guard let innermost = open.last else { throw fail("</\(name)> closes no open element") }
        guard innermost == name else { throw fail("</\(name)> where </\(innermost)> was expected") }
        return end(name)
      } else {
        return try startTag()
      }
    }
    return nil
  }

  private mutating func end(_ name: String) -> Event {
    open.removeLast()
    return .end(name: name)
  }

  private mutating func startTag() throws(Failure) -> Event {
    guard !open.isEmpty || !sawRoot else { throw fail("a second root element") }
    index += 1
    let name = try self.name()
    var attributes: [String: String] = [:]
    while true {
      let spaced = whitespace()
      guard index < bytes.count else { throw fail("the file ends inside the tag <\(name)") }
      if bytes[index] == Self.gt {
        index += 1
        break
      }
      if bytes[index] == Self.slash {
        index += 1
        try expect(Self.gt, "'>' after '/' in <\(name)")
        pendingEnd = name
        break
      }
      guard spaced else { throw fail("no space before an attribute of <\(name)>") }
      let attribute = try self.name()
      whitespace()
      try expect(Self.equals, "'=' after the attribute \(attribute)")
      whitespace()
      guard index < bytes.count, bytes[index] == Self.quote || bytes[index] == Self.apostrophe else {
        throw fail("the value of \(attribute) is not quoted")
      }
      let quote = bytes[index]
      index += 1
      let value = try characters(until: quote)
      index += 1
      guard attributes.updateValue(value, forKey: attribute) == nil else { throw fail("the attribute \(attribute) twice in <\(name)>") }
    }
    open.append(name)
    sawRoot = true
    return .start(name: name, attributes: attributes)
  }

  /// The XML declaration, only first in the file.
  private mutating func declaration() throws(Failure) {
    let at = index
    let isDeclaration =
      !sawRoot && bytes[..<at].allSatisfy { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } && starts(with: "<?xml")
      && index + 5 < bytes.count && Self.isWhitespace(bytes[index + 5])
    guard isDeclaration else {
      throw fail("a processing instruction (<?…?>) at byte \(at); KML and GPX exports have none beyond the XML declaration")
    }
    try skip(past: "?>", what: "the XML declaration")
  }

  /// Text up to the next '<' (or the closing quote of an attribute), entities replaced.
  private mutating func characters(until quote: UInt8? = nil) throws(Failure) -> String {
    var out: [UInt8] = []
    while index < bytes.count {
      let byte = bytes[index]
      if let quote, byte == quote { return String(decoding: out, as: UTF8.self) }
      if byte == Self.lt {
        if quote != nil { throw fail("'<' inside an attribute value") }
        break
      }
      if byte == Self.amp {
        out += try entity()
        continue
      }
      guard byte >= 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else {
        throw fail(String(format: "the control character 0x%02X", byte))
      }
      index += 1
      if byte == 0x0D, index < bytes.count, bytes[index] == 0x0A { continue }
      if byte == 0x0A { line += 1 }
      // XML reads every line end as \n, and white space in an attribute value as a space.
      out.append(quote != nil && byte < 0x20 ? 0x20 : byte == 0x0D ? 0x0A : byte)
    }
    if quote != nil { throw fail("the file ends inside an attribute value") }
    return String(decoding: out, as: UTF8.self)
  }

  private mutating func entity() throws(Failure) -> [UInt8] {
    let start = index + 1
    guard let semicolon = bytes[start...].prefix(12).firstIndex(of: 0x3B) else { throw fail("'&' that starts no entity (write &amp;)") }
    let body = String(decoding: bytes[start..<semicolon], as: UTF8.self)
    let scalar: Unicode.Scalar?
    switch body {
    case "lt": scalar = "<"
    case "gt": scalar = ">"
    case "amp": scalar = "&"
    case "quot": scalar = "\""
    case "apos": scalar = "'"
    default:
      if body.hasPrefix("#x") {
        scalar = UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
      } else if body.hasPrefix("#") {
        scalar = UInt32(body.dropFirst(1), radix: 10).flatMap(Unicode.Scalar.init)
      } else {
        throw fail("the entity &\(body); (only &lt; &gt; &amp; &quot; &apos; and &#…; are XML's own)")
      }
    }
    guard let scalar, scalar.value >= 0x20 || [0x09, 0x0A, 0x0D].contains(scalar.value) else {
      throw fail("&\(body); is not a character XML allows")
    }
    index = semicolon + 1
    return Array(String(Character(scalar)).utf8)
  }

  private mutating func name() throws(Failure) -> String {
    let start = index
    while index < bytes.count, !Self.isWhitespace(bytes[index]), ![Self.gt, Self.slash, Self.equals, Self.lt, Self.quote, Self.apostrophe].contains(bytes[index]) {
      index += 1
    }
    guard index > start else { throw fail(index < bytes.count ? "a name was expected" : "the file ends inside a tag") }
    let first = bytes[start]
    guard first >= 0x80 || (first | 0x20 >= 0x61 && first | 0x20 <= 0x7A) || first == 0x5F || first == 0x3A else {
      throw fail("a name cannot start with '\(Character(Unicode.Scalar(first)))'")
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  @discardableResult private mutating func whitespace() -> Bool {
    let start = index
    while index < bytes.count, Self.isWhitespace(bytes[index]) {
      if bytes[index] == 0x0A { line += 1 }
      index += 1
    }
    return index > start
  }

  private mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
    guard index < bytes.count, bytes[index] == byte else { throw fail("expected \(what)") }
    index += 1
  }

  private func starts(with text: StaticString) -> Bool {
    let pattern = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    return bytes.count - index >= pattern.count && zip(bytes[index...], pattern).allSatisfy { $0 == $1 }
  }

  /// Moves past the next `terminator`, counting lines on the way.
  private mutating func skip(past terminator: StaticString, what: String) throws(Failure) {
    while index < bytes.count {
      if starts(with: terminator) {
        index += terminator.utf8CodeUnitCount
        return
      }
      if bytes[index] == 0x0A { line += 1 }
      index += 1
    }
    throw fail("the file ends inside \(what)")
  }

  private static func normalizingLineEnds(_ text: ArraySlice<UInt8>) -> String {
    guard text.contains(0x0D) else { return String(decoding: text, as: UTF8.self) }
    return String(decoding: text, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
  }

  private func fail(_ message: String) -> Failure { Failure(line: line, message: message) }

  private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
  private static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), amp = UInt8(ascii: "&"), slash = UInt8(ascii: "/")
  private static let equals = UInt8(ascii: "="), quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'")
}

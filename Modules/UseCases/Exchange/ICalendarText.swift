/// RFC 5545 text rules: escaping, line folding at 75 octets, unfolding.
enum ICalendarText {
  // By Unicode scalars: a backslash or comma followed by a combining mark
  // is one Swift Character, and must still be escaped and read back.
  static func escape(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result.append(contentsOf: "\\\\".unicodeScalars)
      case ";": result.append(contentsOf: "\\;".unicodeScalars)
      case ",": result.append(contentsOf: "\\,".unicodeScalars)
      case "\n": result.append(contentsOf: "\\n".unicodeScalars)
      case "\r": continue
      default: result.append(scalar)
      }
    }
    return String(result)
  }

  static func unescape(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    var escaping = false
    for scalar in text.unicodeScalars {
      if escaping {
        result.append(scalar == "n" || scalar == "N" ? "\n" : scalar)
        escaping = false
      } else if scalar == "\\" {
        escaping = true
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }

  /// A parameter value: quoted when it holds `:`, `;` or `,`; quotes dropped.
  static func parameter(_ text: String) -> String {
    var clean = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": clean.append("'")
      case "\n", "\r": clean.append(" ")
      default: clean.append(scalar)
      }
    }
    return clean.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"\(String(clean))\"" : String(clean)
  }

  /// Lines of at most 75 octets, continued with CRLF and a space, never
  /// splitting a UTF-8 sequence. By Unicode scalars, as the octet rule is:
  /// a Character can be longer than a line, and a continuation may begin
  /// with a combining mark (which `unfold` must then still see as one).
  static func fold(_ line: String) -> String {
    var out = String.UnicodeScalarView()
    var count = 0
    for scalar in line.unicodeScalars {
      let size = UTF8.width(scalar)
      if count + size > 75 {
        out.append(contentsOf: "\r\n ".unicodeScalars)
        count = 1
      }
      out.append(scalar)
      count += size
    }
    out.append(contentsOf: "\r\n".unicodeScalars)
    return String(out)
  }

  /// Logical lines: a line whose first scalar is a space or tab continues the
  /// one before. By scalars: a space followed by a combining mark is one
  /// Character, and comparing Characters lost such continuations (found by
  /// FuzzICalendar in CI).
  static func unfold(_ text: String) -> [String] {
    var lines: [String.UnicodeScalarView] = []
    var current = String.UnicodeScalarView()
    func finish() {
      if current.last == "\r" { current.removeLast() }
      if let lead = current.first, lead == " " || lead == "\t", !lines.isEmpty {
        lines[lines.count - 1].append(contentsOf: current.dropFirst())
      } else {
        lines.append(current)
      }
      current = String.UnicodeScalarView()
    }
    for scalar in text.unicodeScalars {
      if scalar == "\n" { finish() } else { current.append(scalar) }
    }
    finish()
    return lines.map(String.init)
  }
}

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
  /// splitting a UTF-8 character.
  static func fold(_ line: String) -> String {
    var out = ""
    var count = 0
    for character in line {
      let size = String(character).utf8.count
      if count + size > 75 {
        out += "\r\n "
        count = 1
      }
      out.append(character)
      count += size
    }
    return out + "\r\n"
  }

  static func unfold(_ text: String) -> [String] {
    var lines: [String] = []
    for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
      if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
        lines[lines.count - 1] += String(line.dropFirst())
      } else {
        lines.append(line)
      }
    }
    return lines
  }
}

/// RFC 5545 text rules: escaping, line folding at 75 octets, unfolding.
enum ICalendarText {
  static func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "\\": result += "\\\\"
      case ";": result += "\\;"
      case ",": result += "\\,"
      case "\n": result += "\\n"
      case "\r": continue
      default: result.append(character)
      }
    }
    return result
  }

  static func unescape(_ text: String) -> String {
    var result = ""
    var escaping = false
    for character in text {
      if escaping {
        result.append(character == "n" || character == "N" ? "\n" : character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.append(character)
      }
    }
    return result
  }

  /// A parameter value: quoted when it holds `:`, `;` or `,`; quotes dropped.
  static func parameter(_ text: String) -> String {
    let clean = text.replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: "\n", with: " ")
    return clean.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"\(clean)\"" : clean
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

import Foundation

/// ANSI styling, only on a terminal and never when NO_COLOR is set
/// (https://no-color.org) or `--no-color` is given.
struct Style {
  /// An SGR code: what `bold`, `dim`, ... wrap their text in.
  enum Code: String {
    case bold = "1", dim = "2", green = "32", yellow = "33", red = "31"
  }

  let enabled: Bool
  /// Times print in the person's zone (`TZ`, else the machine's).
  var timeZone: TimeZone = .current

  func bold(_ text: String) -> String { wrap(text, .bold) }
  func dim(_ text: String) -> String { wrap(text, .dim) }
  func green(_ text: String) -> String { wrap(text, .green) }
  func yellow(_ text: String) -> String { wrap(text, .yellow) }
  func red(_ text: String) -> String { wrap(text, .red) }

  /// Appends what `wrap(text, code)` makes as UTF-8 to `out`, without
  /// making it: a listing writes tens of thousands of these.
  func append(_ text: some LineText, _ code: Code, to out: inout [UInt8]) {
    wrapping(code, into: &out) { text.append(to: &$0) }
  }

  /// Appends what `write` appends, wrapped in `code` where styling is on.
  func wrapping(_ code: Code, into out: inout [UInt8], _ write: (inout [UInt8]) -> Void) {
    guard enabled else { return write(&out) }
    out.append(text: "\u{1B}[")
    out.append(string: code.rawValue)
    out.append(text: "m")
    write(&out)
    out.append(text: "\u{1B}[0m")
  }

  private func wrap(_ text: String, _ code: Code) -> String {
    enabled ? "\u{1B}[\(code.rawValue)m\(text)\u{1B}[0m" : text
  }
}

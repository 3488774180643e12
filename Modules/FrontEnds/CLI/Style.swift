import Foundation

/// ANSI styling, only on a terminal and never when NO_COLOR is set
/// (https://no-color.org) or `--no-color` is given.
struct Style {
  let enabled: Bool
  /// Times print in the person's zone (`TZ`, else the machine's).
  var timeZone: TimeZone = .current

  func bold(_ text: String) -> String { wrap(text, "1") }
  func dim(_ text: String) -> String { wrap(text, "2") }
  func green(_ text: String) -> String { wrap(text, "32") }
  func yellow(_ text: String) -> String { wrap(text, "33") }
  func red(_ text: String) -> String { wrap(text, "31") }

  private func wrap(_ text: String, _ code: String) -> String {
    enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}

import Foundation

/// Durations as people write them: `90s`, `45m`, `2h`, `1h30m`, `1d`, `1w`.
public enum DurationText {
  public static func parse(_ text: String) throws(DomainError) -> TimeInterval {
    let allowed = "a duration such as 30m, 2h, 1h30m, 1d or 1w"
    var total: TimeInterval = 0
    var number = ""
    var sawUnit = false
    for character in text.lowercased() {
      if character.isNumber || character == "." {
        number.append(character)
        continue
      }
      let unit: TimeInterval
      switch character {
      case "s": unit = 1
      case "m": unit = 60
      case "h": unit = 3600
      case "d": unit = 86_400
      case "w": unit = 7 * 86_400
      default: throw .invalidValue(field: "duration", value: text, allowed: allowed)
      }
      guard let value = Double(number), value.isFinite else {
        throw .invalidValue(field: "duration", value: text, allowed: allowed)
      }
      total += value * unit
      number = ""
      sawUnit = true
    }
    guard number.isEmpty, sawUnit, total > 0, total <= 366 * 86_400 else {
      throw .invalidValue(field: "duration", value: text, allowed: allowed + ", at most 366d")
    }
    return total
  }

  public static func format(_ seconds: TimeInterval) -> String {
    var rest = Int(seconds.rounded())
    var parts: [String] = []
    for (unit, size) in [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] where rest >= size {
      parts.append("\(rest / size)\(unit)")
      rest %= size
    }
    return parts.isEmpty ? "0s" : parts.joined()
  }
}

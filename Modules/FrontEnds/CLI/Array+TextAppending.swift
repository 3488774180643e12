extension Array where Element == UInt8 {
  /// Appends `text`'s UTF-8 from its contiguous storage: through the
  /// generic `String.UTF8View` it was a tenth of `task list`.
  mutating func append(utf8 text: String) {
    var text = text
    text.withUTF8 { append(contentsOf: $0) }
  }

  /// Appends `value` in decimal digits, without making a string of it.
  mutating func append(decimal value: Int) {
    if value < 0 { append(UInt8(ascii: "-")) }
    var rest = value.magnitude
    var power: UInt = 1
    while rest / power >= 10 { power *= 10 }
    while power > 0 {
      append(UInt8(ascii: "0") + UInt8(rest / power))
      rest %= power
      power /= 10
    }
  }
}

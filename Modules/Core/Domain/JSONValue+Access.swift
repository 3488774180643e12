extension JSONValue {
  /// A string's text; nil for any other value.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// A number; nil for any other value (true is not 1).
  public var numberValue: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// An array's elements; nil for any other value.
  public var elements: [JSONValue]? {
    if case .array(let values) = self { return values }
    return nil
  }
}

// Messages and reports built in code read as the JSON they make.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

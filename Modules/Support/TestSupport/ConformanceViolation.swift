/// A broken promise found by a conformance kit: which check, and what was seen.
/// Kits throw it rather than assert, so any test framework can call them.
public struct ConformanceViolation: Error, CustomStringConvertible {
  public let check: String
  public let detail: String

  public init(check: String, detail: String) {
    self.check = check
    self.detail = detail
  }

  public var description: String { "\(check): \(detail)" }
}

func expect(_ condition: Bool, _ check: String, _ detail: @autoclosure () -> String) throws {
  if !condition { throw ConformanceViolation(check: check, detail: detail()) }
}

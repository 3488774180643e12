import Foundation

/// Mints new ids. Live code uses random ids; tests and the simulator use a
/// counter so runs repeat exactly.
public protocol IDGenerator: Sendable {
  /// Returns an id never returned before by this generator.
  func next() -> String
}

/// 12 lowercase hex characters from a random UUID: short enough to type,
/// long enough (48 bits) that replicas do not collide in practice.
public struct RandomIDGenerator: IDGenerator {
  public init() {}
  public func next() -> String {
    String(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12))
  }
}

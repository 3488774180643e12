/// A store's self-report for `whilehere doctor`.
public struct StoreDescription: Sendable, Equatable {
  public var kind: String
  public var location: String
  public var details: [(String, String)]

  public init(kind: String, location: String, details: [(String, String)] = []) {
    self.kind = kind
    self.location = location
    self.details = details
  }

  public static func == (a: Self, b: Self) -> Bool {
    a.kind == b.kind && a.location == b.location
      && a.details.map { $0.0 + "=" + $0.1 } == b.details.map { $0.0 + "=" + $0.1 }
  }
}

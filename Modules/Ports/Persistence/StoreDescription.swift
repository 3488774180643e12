/// A store's self-report for `whilehere doctor`.
public struct StoreDescription: Sendable, Equatable {
  public var kind: String
  public var location: String
  public var details: [(String, String)]
  /// What the store repaired on its own and nobody has been shown yet.
  public var notices: [String]

  public init(kind: String, location: String, details: [(String, String)] = [], notices: [String] = []) {
    self.kind = kind
    self.location = location
    self.details = details
    self.notices = notices
  }

  public static func == (a: Self, b: Self) -> Bool {
    a.kind == b.kind && a.location == b.location
      && a.details.map { $0.0 + "=" + $0.1 } == b.details.map { $0.0 + "=" + $0.1 } && a.notices == b.notices
  }
}

import Persistence

/// The newest stamp seen from each replica: a pull keeps only what is newer
/// for its replica. Each replica sends its own records in stamp order, so
/// nothing older can still be on its way.
public struct VersionVector: Sendable, Equatable {
  public private(set) var latest: [String: HLCTimestamp] = [:]

  public init() {}

  /// `REPLICA=STAMP,REPLICA=STAMP`.
  public init?(parsing text: String) {
    for part in text.split(separator: ",") {
      let pieces = part.split(separator: "=", maxSplits: 1)
      guard pieces.count == 2, let stamp = HLCTimestamp(parsing: String(pieces[1])) else { return nil }
      latest[String(pieces[0])] = stamp
    }
  }

  public var text: String { latest.keys.sorted().map { "\($0)=\(latest[$0]!)" }.joined(separator: ",") }

  public func isNew(_ record: OperationRecord) -> Bool {
    guard let seen = latest[record.stamp.replica.rawValue] else { return true }
    return record.stamp > seen
  }

  public mutating func observe(_ record: OperationRecord) {
    let replica = record.stamp.replica.rawValue
    if latest[replica].map({ record.stamp > $0 }) ?? true { latest[replica] = record.stamp }
  }
}

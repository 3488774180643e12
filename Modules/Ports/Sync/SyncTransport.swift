import Persistence

/// Where replicas meet: a shared folder, the daemon, an archive.
///
/// Contract (checked by `SyncTransportConformance` in TestSupport):
/// - `push` makes the records available to every other replica, durably,
///   before it returns; pushing the same records again is harmless;
/// - `pull(after:)` returns the records other replicas pushed since the
///   cursor it returned last time (all of them for nil) and a new cursor;
///   records this replica pushed may come back and are harmless;
/// - a damaged or half-written piece is skipped with a warning naming it,
///   and its records arrive on a later pull once they are complete.
public protocol SyncTransport: AnyObject, Sendable {
  /// For reports and `doctor`: `folder:PATH`, `server:URL`.
  var name: String { get }
  func push(_ records: [OperationRecord], from replica: ReplicaID) throws
  func pull(after cursor: String?, replica: ReplicaID) throws -> SyncPull
}

/// What a pull brought.
public struct SyncPull: Sendable {
  public var records: [OperationRecord]
  /// Opaque; handed back to the next `pull`.
  public var cursor: String
  public var warnings: [String]
  /// Replica → when it last wrote (for `doctor`), where the transport knows.
  public var lastContact: [String: String]

  public init(records: [OperationRecord], cursor: String, warnings: [String] = [], lastContact: [String: String] = [:]) {
    self.records = records
    self.cursor = cursor
    self.warnings = warnings
    self.lastContact = lastContact
  }
}

/// A transport failed as a whole (not a single damaged piece).
public struct SyncError: Error, Equatable, Sendable, CustomStringConvertible {
  public let reason: String
  public init(_ reason: String) { self.reason = reason }
  public var description: String { reason }
}

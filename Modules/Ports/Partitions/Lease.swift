import Foundation

/// Who holds a key of the lease store (a partition or a worker's
/// presence) and until when. An expired lease, or one with no owner, is
/// free for anyone to take.
public struct Lease: Codable, Equatable, Sendable {
  public var owner: String
  /// Epoch seconds, on the clock of the worker that wrote it.
  public var until: Double

  public init(owner: String, until: Double) {
    self.owner = owner
    self.until = until
  }

  public func isHeld(at now: Date) -> Bool { !owner.isEmpty && until > now.timeIntervalSince1970 }
}

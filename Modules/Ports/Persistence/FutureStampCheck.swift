import Foundation

/// Records from elsewhere (sync, a restored backup, the daemon's API) must
/// not carry stamps far ahead of this machine's clock: a hybrid logical
/// clock that merged one would stay pinned there, and every later write
/// would sort after it.
public enum FutureStampCheck {
  /// How far ahead of the local clock a stamp may be (clocks drift; a
  /// phone a few minutes ahead is ordinary).
  public static let allowedSkew: TimeInterval = 600

  /// Throws for the first record stamped beyond `now + allowedSkew`.
  public static func check(_ records: [OperationRecord], now: Date) throws(FutureStampError) {
    let limit = Int64(((now.timeIntervalSince1970 + allowedSkew) * 1000).rounded(.down))
    if let index = records.firstIndex(where: { $0.stamp.wallMillis > limit }) {
      let ahead = Double(records[index].stamp.wallMillis) / 1000 - now.timeIntervalSince1970
      throw FutureStampError(index: index, stamp: records[index].stamp, secondsAhead: ahead)
    }
  }
}

/// A record stamped too far in the future; nothing was merged.
public struct FutureStampError: Error, Equatable, Sendable, CustomStringConvertible {
  public let index: Int
  public let stamp: HLCTimestamp
  public let secondsAhead: Double

  public var description: String {
    "record \(index + 1) is stamped \(stamp), \(Int(secondsAhead)) s ahead of this machine's clock (at most \(Int(FutureStampCheck.allowedSkew)) s allowed); nothing was merged"
  }
}

import Foundation

/// Precise location on a phone reached over the network: the server cannot
/// switch its GPS on, but it can ask for a report with the next answer.
public final class PhoneLocationControl: PreciseLocationControl, @unchecked Sendable {
  private let lock = NSLock()
  private var wantsReport = false

  public init() {}

  public func startPreciseUpdates() { lock.withLock { wantsReport = true } }
  public func stopPreciseUpdates() {}
  public func requestSingleFix() { lock.withLock { wantsReport = true } }

  /// Whether a report was asked for since the last call.
  public func takeRequest() -> Bool {
    lock.withLock {
      defer { wantsReport = false }
      return wantsReport
    }
  }
}

import Foundation
import Geofencing

/// Precise location on a phone reached over the network: the server cannot
/// switch its GPS on, but it can ask for a report with the next answer and,
/// where the person allowed remote configuration, switch the app to move
/// mode for the session and back to the person's own mode after it.
public final class PhoneLocationControl: PreciseLocationControl, @unchecked Sendable {
  /// How a session reaches a phone that allows remote configuration.
  public struct Lever: Equatable, Sendable {
    /// The mode for a session: frequent reports.
    public var session: PhoneMonitoring
    /// The person's own mode, restored when the session ends.
    public var own: PhoneMonitoring

    public init(session: PhoneMonitoring, own: PhoneMonitoring) {
      self.session = session
      self.own = own
    }
  }

  private let lock = NSLock()
  private var wantsReport = false
  private var sessionWanted = false
  /// The mode to go back to while the phone is in session mode because we
  /// said so; nil when it is in the person's own mode.
  private var restoreTo: PhoneMonitoring?

  public init() {}

  public func startPreciseUpdates() {
    lock.withLock {
      wantsReport = true
      sessionWanted = true
    }
  }
  public func stopPreciseUpdates() { lock.withLock { sessionWanted = false } }
  public func requestSingleFix() { lock.withLock { wantsReport = true } }
  /// The OwnTracks apps have no mode the server could switch to that reports
  /// Wi-Fi positions without GPS, and no visit monitoring: both are ignored.
  public func startReducedUpdates(distanceFilter: Double) {}
  public func stopReducedUpdates() {}
  public func startVisitMonitoring() {}
  /// The app's own monitoring mode is the person's choice: left alone.
  public func startSignificantChanges() {}
  public func stopSignificantChanges() {}

  /// Whether we switched the phone to session mode and have not yet switched it back.
  public var switched: Bool { lock.withLock { restoreTo != nil } }

  /// Whether a report was asked for since the last call.
  public func takeRequest() -> Bool {
    lock.withLock {
      defer { wantsReport = false }
      return wantsReport
    }
  }

  /// The commands due now: a mode change when a session started or ended
  /// (or the lever was withdrawn mid-session), then a report if one was
  /// asked for. `lever` nil means the device does not allow remote
  /// configuration: only reports are asked for.
  public func takeCommands(lever: Lever?) -> [PhoneCommand] {
    lock.withLock {
      var commands: [PhoneCommand] = []
      if let lever, sessionWanted, restoreTo == nil {
        restoreTo = lever.own
        commands.append(.setMonitoring(lever.session))
      } else if let own = restoreTo, !sessionWanted || lever == nil {
        restoreTo = nil
        commands.append(.setMonitoring(own))
      }
      if wantsReport {
        wantsReport = false
        commands.append(.reportLocation)
      }
      return commands
    }
  }
}

import Foundation
import Locking

/// Precise location on a phone reached over the network: the server cannot
/// switch its GPS on, but it can ask for a report with the next answer and,
/// where the person allowed remote configuration, switch the app to move
/// mode for the session and back to the person's own mode after it.
public final class PhoneLocationControl: PreciseLocationControl, Sendable {
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

  private let state = Locked(Wanted())

  private struct Wanted {
    var report = false
    var session = false
    /// The mode to go back to while the phone is in session mode because we
    /// said so; nil when it is in the person's own mode.
    var restoreTo: PhoneMonitoring?
  }

  public init() {}

  public func startPreciseUpdates() {
    state.withLock {
      $0.report = true
      $0.session = true
    }
  }
  public func stopPreciseUpdates() { state.withLock { $0.session = false } }
  public func requestSingleFix() { state.withLock { $0.report = true } }
  public func withdrawSingleFix() { state.withLock { $0.report = false } }
  /// The OwnTracks apps have no mode the server could switch to that reports
  /// Wi-Fi positions without GPS, and no visit monitoring: both are ignored.
  public func startReducedUpdates(distanceFilter: Double) {}
  public var offersReducedUpdates: Bool { false }
  public func stopReducedUpdates() {}
  public func startVisitMonitoring() {}
  /// The app's own monitoring mode is the person's choice: left alone.
  public func startSignificantChanges() {}
  public func stopSignificantChanges() {}

  /// Whether we switched the phone to session mode and have not yet switched it back.
  public var switched: Bool { state.withLock { $0.restoreTo != nil } }

  /// The commands due now: a mode change when a session started or ended
  /// (or the lever was withdrawn mid-session), then a report if one was
  /// asked for. `lever` nil means the device does not allow remote
  /// configuration: only reports are asked for.
  public func takeCommands(lever: Lever?) -> [PhoneCommand] {
    state.withLock { wanted in
      var commands: [PhoneCommand] = []
      if let lever, wanted.session, wanted.restoreTo == nil {
        wanted.restoreTo = lever.own
        commands.append(.setMonitoring(lever.session))
      } else if let own = wanted.restoreTo, !wanted.session || lever == nil {
        wanted.restoreTo = nil
        commands.append(.setMonitoring(own))
      }
      if wanted.report {
        wanted.report = false
        commands.append(.reportLocation)
      }
      return commands
    }
  }
}

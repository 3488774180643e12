import Domain
import Foundation
import Geofencing
import Locking
import Notifications

/// One person's phone, reached over the network: its reports drive the
/// arrival engine, and each answer carries the commands that keep the
/// phone's regions in line with the plan.
public final class PhoneService: Sendable {
  public let arrival: ArrivalService
  public let monitor: PhoneRegionMonitor
  let control: PhoneLocationControl
  let clock: any WallClock
  /// A fix delivered later than this after it was taken (a phone that was
  /// offline) moves the plan but fires nothing: the person has left.
  public let maxFixAge: TimeInterval
  let session: SessionConfig
  /// One report at a time per person: the engine's steps must not
  /// interleave, so the lock is held across them.
  private let phone = Locked(Phone())

  /// What the phone's reports said about it.
  private struct Phone {
    /// Whether the device that reported last allows remote configuration.
    var remoteConfiguration = false
    /// The app's own mode, as its reports outside our sessions say (OwnTracks `m`).
    var ownMode = PhoneMonitoring.significant
    var lastBattery: Int?
    /// We sent the command that ends a session's move mode and no report
    /// has shown the app out of it yet: a report still saying "move" was
    /// written before the app read the command, not the person's choice.
    var leavingSession = false
    /// The motion the engine was last told (OwnTracks iOS
    /// `motionactivities`, or Android's Wi-Fi), and whether the phone
    /// reports its motion itself.
    var stationary: Bool?
    var reportsMotion = false
    /// The network the phone last said it was on (OwnTracks Android).
    var network: PhoneNetwork?
  }

  /// What one report did, and what to send back.
  public struct Reply: Sendable {
    public var events: [ArrivalEvent] = []
    public var commands: [PhoneCommand] = []

    /// Nothing happened and nothing is to be sent.
    public init() {}

    public var reminders: [ReminderNotification] {
      events.compactMap { event in
        guard case .reminder(let outcome) = event else { return nil }
        switch outcome {
        case .delivered(let notification), .suppressed(let notification, _), .failed(let notification, _): return notification
        }
      }
    }
  }

  public init(
    context: EngineContext, scheduler: NotificationScheduler, config: ArrivalConfig, capacity: Int, maxFixAge: TimeInterval = 600
  ) {
    monitor = PhoneRegionMonitor(capacity: capacity)
    control = PhoneLocationControl()
    clock = context.clock
    self.maxFixAge = maxFixAge
    session = config.session
    // The phone reports on its own schedule: a session cannot rest its GPS,
    // and waits for a usable report as long as such a phone needs.
    var config = config
    config.session.pauseMinimum = 0
    config.session.noFixTimeout = config.session.remoteNoFixTimeout
    arrival = ArrivalService(context: context, monitor: monitor, precise: control, scheduler: scheduler, config: config)
  }

  /// One report. `remoteConfiguration`: the reporting device's owner allowed
  /// the server to change its location mode (per device, in the config), so
  /// a precise session switches it to move mode and back.
  public func receive(_ report: PhoneReport, remoteConfiguration: Bool = false) -> Reply {
    phone.withLock { phone in
      phone.remoteConfiguration = remoteConfiguration
      var reply = Reply()
      switch report {
      case .location(let fix):
        reply.events = locate(fix, phone: &phone)
      case .transition(let transition):
        if let id = monitor.region(for: transition) {
          reply.events = arrival.regionEvent(RegionEvent(id: id, kind: transition.entered ? .entered : .exited, at: transition.at))
        } else {
          reply.events = [.ignoredRegion(transition.regionID ?? transition.name ?? "?", reason: "not a region of the current plan")]
        }
        if let fix = transition.fix { reply.events += locate(fix, phone: &phone) }
      case .waypoints, .lastWill, .ignored:
        break
      }
      reply.commands = commands(&phone)
      return reply
    }
  }

  /// After a restart (or a takeover): the last fix journalled before it.
  /// The plan is made from it; what it fires is decided against the visits
  /// saved as reminded (`ArrivalMachine.reportedFix`, restoring), so a fix
  /// whose step never ran still fires and a visit reminded does not again.
  /// `remoteConfiguration`: as for `receive`, of the device that sent it.
  public func restore(_ fix: PhoneFix, remoteConfiguration: Bool = false) -> [ArrivalEvent] {
    phone.withLock { _ in
      arrival.phoneReport(
        PhoneReading(
          point: fix.coordinate, accuracy: fix.accuracy ?? 100, takenAt: fix.at, fresh: clock.now().timeIntervalSince(fix.at) <= maxFixAge,
          sessionsReach: remoteConfiguration, restoring: true))
    }
  }

  /// Tasks changed (an answer, an edit): replan. The phone gets the new
  /// regions with its next answer (or from `pendingCommands`).
  public func tasksChanged() -> [ArrivalEvent] {
    phone.withLock { _ in arrival.tasksChanged() }
  }

  /// Time passed: ends sessions whose fixes stopped, wakes snoozed tasks.
  public func tick() -> [ArrivalEvent] {
    phone.withLock { _ in arrival.tick() }
  }

  /// The commands that are due now, without waiting for a report (MQTT).
  public func pendingCommands() -> [PhoneCommand] { phone.withLock { commands(&$0) } }

  /// One location report, as one input to the engine: the battery and
  /// motion changes it carries, then the position.
  private func locate(_ fix: PhoneFix, phone: inout Phone) -> [ArrivalEvent] {
    // Unknown accuracy is taken as poor: it may plan but not fire a small place.
    var reading = PhoneReading(
      point: fix.coordinate, accuracy: fix.accuracy ?? 100, takenAt: fix.at, fresh: clock.now().timeIntervalSince(fix.at) <= maxFixAge,
      sessionsReach: phone.remoteConfiguration)
    // A "move" written before the app read the command ending our session
    // is not the person's choice: taken for it, the next session left the
    // phone in move mode for good.
    if let mode = fix.monitoring, !control.switched, !(phone.leavingSession && mode == PhoneMonitoring.move) {
      phone.ownMode = mode
      phone.leavingSession = false
    }
    // The power rules see the phone's battery as it reports it; a phone on
    // the charger is treated as full.
    if let battery = fix.battery, battery >= 0, reading.fresh {
      let level = fix.charging == true ? 100 : battery
      if level != phone.lastBattery {
        phone.lastBattery = level
        reading.power = PowerState(battery: Double(level) / 100)
      }
    }
    // A phone that says how it moves (OwnTracks iOS) gives the engine the
    // motion history the native app reads, as a change: stillness begins at
    // the first report that says so, since the app reports only when woken.
    if let stationary = fix.stationary, reading.fresh {
      phone.reportsMotion = true
      if stationary != phone.stationary {
        phone.stationary = stationary
        reading.motion = [stationary]
      }
    } else if !phone.reportsMotion, let network = fix.network, reading.fresh {
      reading.motion = networkChanged(network, phone: &phone)
    }
    return arrival.phoneReport(reading)
  }

  /// A phone that says nothing of its motion but names the Wi-Fi access
  /// point it is joined to (OwnTracks Android) stays within that point's
  /// reach, tens of metres, while it stays joined: to the engine that is
  /// stillness from the first report naming it, ended by a report on
  /// another network or none. What the OS's position does meanwhile is
  /// wandering, as with a phone that sits still.
  /// The motion changes, in order, a report on `network` implies.
  private func networkChanged(_ network: PhoneNetwork, phone: inout Phone) -> [Bool] {
    guard network != phone.network else { return [] }
    phone.network = network
    var changes: [Bool] = []
    if phone.stationary == true { changes.append(false) }
    phone.stationary = false
    if case .wifi = network {
      changes.append(true)
      phone.stationary = true
    }
    return changes
  }

  private func commands(_ phone: inout Phone) -> [PhoneCommand] {
    let lever = phone.remoteConfiguration
      ? PhoneLocationControl.Lever(
        session: .move(interval: max(1, Int(session.remoteInterval.rounded())), displacement: max(1, Int(session.remoteDisplacement.rounded()))),
        own: PhoneMonitoring(mode: phone.ownMode))
      : nil
    let modeCommands = control.takeCommands(lever: lever)
    if modeCommands.contains(where: { if case .setMonitoring = $0 { true } else { false } }), !control.switched { phone.leavingSession = true }
    return monitor.takeCommands() + modeCommands
  }
}

import Domain
import Engine
import Foundation
import Geofencing
import Notifications

/// What a driven phone shows: the OS's region events and the engine's actions.
public enum PhoneObservation: Sendable {
  case region(RegionEvent)
  case engine(ArrivalEvent)
}

/// Drives an arrival engine with a simulated phone one second at a time:
/// power changes, motion, significant changes, reduced-accuracy fixes,
/// visits, OS region events, precise fixes and the passage of time, in that order.
final class PhoneDriver {
  let phone: SimulatedPhone
  let engine: ArrivalService
  let clock: ManualClock
  let world: WorldConfig
  /// The battery left: what the phone's GPS time and wakes have used so far.
  private var battery: Double {
    world.power.startBattery - phone.energyWh(world) / world.power.batteryWh
  }
  private var powerIndex = 0
  /// A change of the motion history the engine has not read yet, and when it happened.
  private var unreadMotion: (still: Bool, at: Date)?
  /// Seconds in which the engine ran its timers (the app was running or woken).
  private(set) var ticks = 0
  /// What the phone handed the engine for each observation of the last
  /// step (`--explain` counts fires by it).
  private(set) var sources: [String] = []

  init(world: WorldConfig, phone: SimulatedPhone, context: EngineContext, clock: ManualClock, config: ArrivalConfig, sink: any NotificationSink) {
    self.world = world
    self.phone = phone
    self.clock = clock
    engine = ArrivalService(
      context: context, monitor: phone.monitor, precise: phone.location, scheduler: NotificationScheduler(sink: sink), config: config)
    _ = try? engine.launch()
  }

  func step(second: Int, position: Coordinate, at now: Date) -> [PhoneObservation] {
    clock.set(now)
    var observed: [PhoneObservation] = []
    sources = []
    func add(_ events: [ArrivalEvent], from source: String) {
      observed += events.map(PhoneObservation.engine)
      sources += Array(repeating: source, count: events.count)
    }
    // A suspended app runs no code: power changes and the passage of time
    // reach the engine while it runs, or at the next wake.
    // Woken, an app first sees how much time passed (timers that ran out
    // while it was suspended), then what woke it.
    let awake = phone.location.isAppAwake
    var woke = false
    func readPower() {
      while powerIndex < phone.power.count, phone.power[powerIndex].0 <= second {
        let change = phone.power[powerIndex].1
        let state = PowerState(battery: battery, lowPowerMode: change.lowPowerMode, thermal: change.seriousHeat ? .serious : .nominal)
        add(engine.powerChanged(state), from: "a power change")
        powerIndex += 1
      }
    }
    func wake() {
      guard !awake, !woke else { return }
      woke = true
      readPower()
      ticks += 1
      add(engine.tick(), from: "the engine's timers")
    }
    if awake { readPower() }
    if let still = phone.motion.step(second: second, position: position) {
      unreadMotion = (still, now)
      phone.location.motionChanged(still: still)
    }
    // The app reads the motion history while it runs, and a suspended one
    // at its next wake: the change reaches the engine no sooner.
    func readMotion() {
      guard let change = unreadMotion else { return }
      unreadMotion = nil
      add(engine.motionChanged(still: change.still, since: change.at), from: "the motion history")
    }
    if awake { readMotion() }
    if let fix = phone.location.significantChange(position: position, at: now) {
      wake()
      readMotion()
      add(engine.significantChange(fix.point, accuracy: fix.accuracy), from: "a significant change")
    }
    if let fix = phone.location.reducedFix(position: position, at: now) {
      wake()
      add(engine.reducedFix(fix.point, accuracy: fix.accuracy), from: "a followed (reduced-accuracy) position")
    }
    if let visit = phone.location.visit(position: position, at: now) {
      wake()
      readMotion()
      add(engine.visitReported(visit.point, accuracy: visit.accuracy, departed: visit.departed), from: "a visit (CLVisit)")
    }
    let moved = phone.location.movementWake(position: position, at: now)
    if moved.woke {
      wake()
      readMotion()
    }
    if let fix = moved.fix {
      add(engine.preciseFix(fix.point, accuracy: fix.accuracy), from: "a movement watch's GPS fix")
    }
    for event in phone.monitor.step(position: position, at: now) {
      wake()
      readMotion()
      observed.append(.region(event))
      sources.append("an OS region event")
      add(engine.regionEvent(event), from: "an OS region event")
    }
    if let fix = phone.location.preciseFix(position: position, at: now) {
      wake()
      let source = engine.sessionRunning ? "a session's GPS fix" : "a single GPS fix (wake-up or confirming)"
      add(engine.preciseFix(fix.point, accuracy: fix.accuracy), from: source)
    }
    // Running through the second (or left running by what it did): time passes.
    if awake || (!woke && phone.location.isAppAwake) {
      readPower()
      ticks += 1
      add(engine.tick(), from: "the engine's timers")
    }
    return observed
  }
}

import Daemon
import Domain
import Foundation
import Gateway
import Locking
import Simulation

/// `whilehered --demo`: a demo person with the embedded Helsinki walk's
/// places and tasks, whose simulated OwnTracks phone (iOS, HTTP, obeying the
/// daemon's commands) walks the route in accelerated time through the
/// daemon's own routing, while the map page shows it live. The store is in
/// memory and the clock is the demo's: nothing is kept.
public final class LiveDemo: Sendable {
  public static let person = "demo"
  public static let device = "phone"

  /// A config for the demo: in-memory store, a manual clock at the walk's
  /// start, the demo person with `hash` as password hash.
  public static func config(listen: String, hash: String) -> String {
    let start = ISO8601DateFormatter().string(from: HelsinkiWalk.scenario.start)
    return #"{"store": "memory", "clock": "manual:\#(start)", "ids": "sequential", "server": {"listen": "\#(listen)"}, "# + #""people": {"\#(person)": {"password": "\#(hash)", "remoteConfiguration": ["\#(device)"]}}}"#
  }

  let host: DaemonHost
  let clock: ManualClock
  let speed: Double
  let log: @Sendable (String) -> Void
  private let stopping = Locked(false)
  private let finished = DispatchSemaphore(value: 0)

  /// Seeds the walk's places and tasks for the demo person and starts walking.
  public init(host: DaemonHost, clock: ManualClock, speed: Double, log: @escaping @Sendable (String) -> Void) throws {
    self.host = host
    self.clock = clock
    self.speed = speed
    self.log = log
    let scenario = HelsinkiWalk.scenario
    guard let engine = host.engine(for: Self.person) else { throw DaemonError("the demo person is missing") }
    try scenario.seed(into: engine)
    let path = try WalkPath(scenario.walk)
    let thread = Thread { [self] in walk(path, start: scenario.start) }
    thread.name = "whilehere.demo"
    thread.start()
  }

  /// One simulated second per `1/speed` real seconds: the phone steps, its
  /// messages go through the daemon's routing, its answers come back to it.
  private func walk(_ path: WalkPath, start: Date) {
    let world = WorldConfig.calmPhone
    let app = OwnTracksApp(
      platform: .iOS, transport: .http, remoteConfiguration: true, world: world, duration: path.samples.count, random: SimRandom(seed: 1))
    let authorization = "Basic " + Data("\(Self.person):\(Self.person)".utf8).base64EncodedString()
    log("demo: \(Self.person)'s phone walks \(HelsinkiWalk.scenario.name) (\(path.samples.count / 60) min) at \(Int(speed))× speed")
    var lastLabel: String?
    for (second, sample) in path.samples.enumerated() {
      if stopping.withLock({ $0 }) { break }
      let now = start.addingTimeInterval(TimeInterval(second))
      clock.set(now)
      if let label = sample.pausedAt, label != lastLabel { log("demo: at \(label)") }
      lastLabel = sample.pausedAt ?? lastLabel
      for message in app.step(position: sample.position, at: now, battery: app.battery(world: world)) {
        let response = host.receive(
          HTTPRequest(
            method: "POST", path: "/owntracks",
            headers: ["Authorization": authorization, "Content-Type": "application/json", "X-Limit-U": Self.person, "X-Limit-D": Self.device],
            body: message.body))
        if (200..<300).contains(response.status) { app.receive(response.body, at: now) }
      }
      if second % 5 == 0 { host.tick() }
      Thread.sleep(forTimeInterval: 1 / speed)
    }
    log("demo: the walk is over; the page stays up (restart to walk again)")
    finished.signal()
  }

  /// Stops walking (at the next simulated second).
  public func stop() {
    stopping.withLock { $0 = true }
    finished.wait()
  }
}

import Foundation
import Gateway
import Geofencing
import Locking
import OwnTracks

/// OwnTracks in MQTT mode: reports arrive on `owntracks/USER/DEVICE` (and
/// `…/event`), commands go back on `owntracks/USER/DEVICE/cmd` with QoS 1.
/// The broker authenticates the phones; its ACLs must keep each user to
/// their own `owntracks/USER/#` (Docs/Daemon.md), since the topic names
/// the person.
final class MQTTIngest: Sendable {
  static let subscriptions = ["owntracks/+/+", "owntracks/+/+/event"]
  let broker: any MessageBroker
  let people: People
  let clock: @Sendable () -> Date
  let log: DaemonLog
  /// In a cluster: reports go to the shared queue (set once the cluster is up).
  let cluster = Locked<ClusterIngest?>(nil)

  init(broker: any MessageBroker, people: People, clock: @escaping @Sendable () -> Date, log: DaemonLog) {
    self.broker = broker
    self.people = people
    self.clock = clock
    self.log = log
  }

  func start() throws {
    try broker.connect(subscriptions: Self.subscriptions) { [weak self] topic, payload in self?.handle(topic: topic, payload: payload) }
    state.withLock { $0 = .connected }
  }

  /// Whether the broker is reachable, for /health and the log.
  enum State: Equatable, Sendable {
    case connecting(lastError: String)
    case connected
    case stopped
  }
  let state = Locked(State.connecting(lastError: "not tried yet"))

  /// Connects now, or keeps trying in the background with a doubling wait
  /// (1 s up to a minute) while HTTP is served: a broker that is down when
  /// the daemon starts must not keep phones on HTTP from reporting.
  func startRetrying(after delay: TimeInterval = 1, queue: DispatchQueue = DispatchQueue(label: "whilehere.mqtt.retry")) {
    // A retry due after the daemon stopped must not connect again.
    guard state.withLock({ $0 }) != .stopped else { return }
    do {
      try start()
      log("mqtt-connected", [:])
    } catch {
      let stopped = state.withLock { current -> Bool in
        if current == .stopped { return true }
        current = .connecting(lastError: "\(error)")
        return false
      }
      guard !stopped else { return }
      log("mqtt-unavailable", ["error": "\(error)", "retry-in": String(Int(delay))])
      queue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.startRetrying(after: min(delay * 2, 60), queue: queue) }
    }
  }

  func stop() {
    state.withLock { $0 = .stopped }
    broker.disconnect()
  }

  func handle(topic: String, payload: Data) {
    let levels = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard levels.first == "owntracks", levels.count == 3 || (levels.count == 4 && levels[3] == "event") else { return }
    let (user, device) = (levels[1], levels[2])
    guard let member = people.members[user] else {
      log("mqtt-refused", ["topic": topic, "reason": "no such person"])
      return
    }
    guard member.settings.devices.isEmpty || member.settings.devices.contains(device) else {
      log("mqtt-refused", ["topic": topic, "reason": "not one of \(user)'s devices"])
      return
    }
    guard !payload.isEmpty else { return }
    let report: PhoneReport
    let body: Data
    do {
      (report, body, _) = try OwnTracksEnvelope(person: user, secret: member.settings.encryptionKey).decode(payload, now: clock())
    } catch {
      log("mqtt-refused", ["topic": topic, "reason": "\(error)"])
      return
    }
    if let cluster = cluster.withLock({ $0 }) {
      do { _ = try cluster.front(body, person: user, device: device, via: .mqtt) } catch {
        log("cluster-queue-failed", ["person": user, "error": "\(error)"])
      }
      return
    }
    let person: Person
    do {
      guard let opened = try people.person(user) else { return }
      person = opened
    } catch {
      log("store-failed", ["person": user, "error": "\(error)"])
      return
    }
    person.transport = .mqtt(device: device)
    do {
      let reply = try person.receive(report, device: device)
      for notification in reply.reminders {
        log("fired", ["person": user, "task": notification.task.rawValue, "title": notification.title])
      }
      send(reply.commands, to: user, device: device)
    } catch {
      log("store-failed", ["person": user, "error": "\(error)"])
    }
  }

  /// Sends what changed without a report (an answer, a snooze ending) to
  /// people whose phones speak MQTT.
  func flush() {
    for person in people.byName.values {
      guard case .mqtt(let device) = person.transport else { continue }
      send(person.phone.pendingCommands(), to: person.name, device: device)
    }
  }

  func send(_ commands: [PhoneCommand], to user: String, device: String) {
    guard !commands.isEmpty else { return }
    // A person with a key has the broker carry nothing it could read.
    let envelope = OwnTracksEnvelope(person: user, secret: people.members[user]?.settings.encryptionKey ?? "")
    for message in OwnTracksCodec.encodeEach(commands) {
      do {
        try broker.publish(topic: "owntracks/\(user)/\(device)/cmd", payload: envelope.seal(message))
      } catch {
        log("mqtt-publish-failed", ["person": user, "error": "\(error)"])
      }
    }
    log("commands", ["person": user, "count": String(commands.count), "via": "mqtt"])
  }
}

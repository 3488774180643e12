import Composition
import Domain
import Foundation
import Geofencing
import Locking
import OwnTracks
import Partitions

/// whilehered as one of a cluster's workers (`cluster.nats`). As a front,
/// it puts each phone report on the person's partition of the shared
/// queue instead of running the engine, and answers an HTTP phone with
/// the commands workers left in its mailbox. As a worker, it holds leases
/// on a fair share of the partitions and applies their reports in order
/// through the same person code a single daemon runs, acknowledging each
/// once the person's step is durable; commands go to MQTT phones at once
/// and to HTTP phones through the mailbox.
final class ClusterIngest: Sendable {
  let ports: ClusterPorts
  let owner: PartitionOwner
  private let worker: PartitionWorker
  private let people: People
  private let log: DaemonLog
  private let clock: any WallClock
  /// How long a guest (a person of a partition this worker does not hold,
  /// opened for its API or an answer link) stays open unused, seconds.
  let idleSeconds: TimeInterval
  /// Whether the loops should go on, and what each signals when it ended.
  private let loop = Locked<(running: Bool, ended: [OneShot<Void>])>((false, []))
  /// Counts for /health and the log.
  let applied = Locked(0)
  /// Who held which partition at this worker's last lease round.
  let table = Locked<PartitionTable?>(nil)

  /// How a report reached its front, written before the device's name in
  /// the queued report (`http/phone`), so the worker answers the same way.
  enum Channel: String {
    case http, mqtt
    /// Not a phone's report: the person's tasks or places were changed
    /// through a front's API, and the owner's engine reads them again.
    case api
  }

  /// The body of an `api` message; its position in the partition is what counts.
  static let changedBody = Data(#"{"_type":"wh-changed"}"#.utf8)

  init(
    ports: ClusterPorts, worker id: String, leaseSeconds: Double, idleSeconds: TimeInterval = 600, people: People, mqtt: MQTTIngest?,
    clock: any WallClock, log: DaemonLog
  ) throws {
    self.ports = ports
    self.idleSeconds = idleSeconds
    self.people = people
    self.log = log
    self.clock = clock
    owner = try PartitionOwner(worker: id, partitions: ports.queue.partitions, store: ports.leases, clock: clock, leaseSeconds: leaseSeconds)
    let mailbox = ports.mailbox
    let applied = applied
    let held = owner
    worker = PartitionWorker(owner: owner, queue: ports.queue) { reports in
      let outcome = Self.apply(
        reports, people: people, mqtt: mqtt, mailbox: mailbox, now: clock.now(), log: log, held: { held.held.contains($0) })
      applied.withLock { $0 += outcome.applied }
      return (outcome.through, outcome.failure)
    }
    // A change made through this front's API reaches the owner's engine
    // in order with the person's reports: before the next one applied.
    let queue = ports.queue
    let owner = owner
    people.whenOpened { person in
      person.changeListener.withLock {
        $0 = { name in
          // The owner itself replanned already; a new owner reads the store when it takes the partition.
          guard !owner.held.contains(Partitioning.partition(of: name, count: queue.partitions)) else { return }
          do { _ = try queue.publish(person: name, device: Channel.api.rawValue + "/", body: Self.changedBody) } catch {
            log("cluster-change-not-passed", ["person": name, "error": "\(error)", "detail": "the owner's engine reads it at its next takeover"])
          }
        }
      }
    }
  }

  /// The front's part for one report already checked (its person and
  /// device allowed, its JSON an OwnTracks message): queued durably, then
  /// the commands workers left for the phone, as one JSON array.
  func front(_ body: Data, person: String, device: String?, via channel: Channel) throws -> Data {
    _ = try ports.queue.publish(person: person, device: channel.rawValue + "/" + (device ?? ""), body: body)
    guard channel == .http else { return Data("[]".utf8) }
    let messages = try ports.mailbox.collect(for: person)
    return Data("[".utf8) + Data(messages.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",").utf8) + Data("]".utf8)
  }

  /// One queued report, on the worker that owns its partition; whether it
  /// was applied (false: let be). See the batch form.
  @discardableResult
  static func apply(_ report: QueuedReport, people: People, mqtt: MQTTIngest?, mailbox: any CommandMailbox, now: Date, log: DaemonLog) throws -> Bool {
    let outcome = apply([report], people: people, mqtt: mqtt, mailbox: mailbox, now: now, log: log, held: { _ in true })
    if let failure = outcome.failure { throw failure }
    return outcome.applied == 1
  }

  /// One partition's reports, in order, on the worker that owns it. Each
  /// step starts without waiting for the one before to be durable, so the
  /// journal writes a batch's fixes together (its group commit), and each
  /// person's steps still run in their order. A worker killed between that
  /// write and the steps leaves fixes journalled whose steps never ran:
  /// the next owner takes each person's last one again against the visits
  /// saved as reminded (`Person.refresh`), so an arrival is reminded once;
  /// a person's earlier fix in the same batch is not taken again.
  /// Answers how many from the first were applied or let be (`through`, to
  /// acknowledge), how many were applied, and why the next one could not
  /// be (nil: `held` said the partition's lease ran out, and no step of a
  /// report after that was started).
  ///
  /// `held` is asked again when a step's journal write is made: a write
  /// that waited in the journal's queue until the lease was nearly out is
  /// not made (the step fails, the report is not acknowledged), so a
  /// worker's stamp on a person's journal always comes before the next
  /// owner's. That order, not the journal's expected-last-sequence check,
  /// keeps an older fix from being journalled over a later one: nats-server
  /// 2.9 lets two writers expecting the same end both store.
  ///
  /// A report nobody can apply (an unknown person, JSON that is no
  /// OwnTracks message) is logged and let be; one whose step could not be
  /// made durable is the failure, and comes again with those after it. A
  /// report already applied (its sequence journalled with the person's
  /// last fix or, for any other report, on its own, by this worker or by
  /// one that died before acknowledging it) is let be, so it moves nothing
  /// and fires nothing twice; so is one found, when it is written, to be
  /// older than one the journal already holds (another worker took the
  /// partition meanwhile and applied it and the next). An `api` message
  /// makes the owner read the person's store again, after the steps
  /// before it.
  static func apply(
    _ reports: [QueuedReport], people: People, mqtt: MQTTIngest?, mailbox: any CommandMailbox, now: Date, log: DaemonLog,
    held: @escaping @Sendable (Int) -> Bool
  ) -> (through: Int, applied: Int, failure: (any Error)?) {
    // Steps under way, by the index of their report.
    var underway: [(index: Int, outcome: OneShot<(any Error)?>)] = []
    var applied = 0
    /// Waits for every step under way; the index and error of the first that failed.
    func settle() -> (Int, any Error)? {
      defer { underway = [] }
      for step in underway {
        if let failure = step.outcome.take() { return (step.index, failure) }
        applied += 1
      }
      return nil
    }
    for (index, report) in reports.enumerated() {
      guard held(report.partition) else {
        if let (failed, error) = settle() { return (failed, applied, error) }
        return (index, applied, nil)
      }
      let found: Person?
      do { found = try people.person(report.person) } catch {
        // Their store is out of reach: this report and those after it come again.
        if let (failed, error) = settle() { return (failed, applied, error) }
        return (index, applied, error)
      }
      guard let person = found else {
        log("cluster-dropped", ["person": report.person, "reason": "not one of the people in this worker's config"])
        continue
      }
      let slash = report.device.firstIndex(of: "/")
      let channel = slash.flatMap { Channel(rawValue: String(report.device[..<$0])) } ?? .http
      let device = slash.map { String(report.device[report.device.index(after: $0)...]) }.flatMap { $0.isEmpty ? nil : $0 }
      if channel == .api {
        // After the steps before it, so they and the phone's next report see the change in order.
        if let (failed, error) = settle() { return (failed, applied, error) }
        do { try person.reread() } catch { return (index, applied, error) }
        applied += 1
        continue
      }
      let decoded: PhoneReport
      do { decoded = try OwnTracksCodec.decode(report.body, now: now) } catch {
        log("cluster-dropped", ["person": person.name, "reason": "\(error)"])
        continue
      }
      if let last = person.lastQueued, report.sequence <= last {
        log("cluster-duplicate", ["person": person.name, "sequence": String(report.sequence)])
        continue
      }
      person.transport = channel == .mqtt ? .mqtt(device: device ?? "") : .http
      let outcome = OneShot<(any Error)?>()
      underway.append((index, outcome))
      let superseded: @Sendable () -> Void = {
        log("cluster-superseded", ["person": person.name, "sequence": String(report.sequence)])
      }
      let partition = report.partition
      let step = Person.QueuedStep(sequence: report.sequence, held: { held(partition) }, superseded: superseded)
      person.receive(decoded, device: device, queued: step) { result in
        switch result {
        case .failure(let error): outcome.put(error)
        case .success(let reply):
          for notification in reply.reminders {
            log("fired", ["person": person.name, "task": notification.task.rawValue, "title": notification.title])
          }
          guard !reply.commands.isEmpty else { return outcome.put(nil) }
          if channel == .mqtt, let mqtt, let device {
            mqtt.send(reply.commands, to: person.name, device: device)
            outcome.put(nil)
          } else {
            do {
              try mailbox.leave(OwnTracksCodec.encodeEach(reply.commands), for: person.name)
              outcome.put(nil)
            } catch { outcome.put(error) }
          }
        }
      }
    }
    if let (failed, error) = settle() { return (failed, applied, error) }
    return (reports.count, applied, nil)
  }

  /// Starts the worker's two loops, each on a thread of its own: lease
  /// rounds every third of the lease (and as soon as another worker's
  /// lease lapses), and passes over the partitions held.
  /// Apart, so a slow pass (consumers made again while the cluster elects
  /// new leaders, a takeover reading every person) never holds back the
  /// renewal that keeps its partitions: on one thread, passes outlasting
  /// the lease lost the partitions, took them again and rewound them,
  /// round after round.
  func start() {
    let rounds = OneShot<Void>()
    let passes = OneShot<Void>()
    loop.withLock { $0 = (true, [rounds, passes]) }
    let period = owner.leaseSeconds / 3
    Thread { [self] in
      var lastRound: Date?
      var lastHeld: Set<Int> = []
      while loop.withLock({ $0.running }) {
        let now = clock.now()
        let due = lastRound.map { now.timeIntervalSince($0) >= period || now < $0 } ?? true
        // Another worker's lease just ran out unrenewed (it died): taken
        // now, not up to a third of a lease later.
        let lapsed = owner.nextExpiry.map { now.timeIntervalSince($0) >= 0.1 } ?? false
        if due || lapsed {
          lastRound = now
          do {
            let held = try owner.round()
            // When the leases changed hands, by this worker's clock: what a takeover's time is read from.
            if held != lastHeld {
              lastHeld = held
              log("cluster-leases", ["worker": owner.worker, "held": String(held.count), "at": String(format: "%.3f", clock.now().timeIntervalSince1970)])
            }
            let read = try PartitionTable.read(ports.leases, partitions: owner.partitions, now: now)
            table.withLock { $0 = read }
          } catch { log("cluster-lease-failed", ["worker": owner.worker, "error": "\(error)"]) }
          // Rounds this slow put the leases at risk (the others may take
          // them), and hold back a takeover: said, for whoever runs it.
          let took = clock.now().timeIntervalSince(now)
          if took > period / 2 {
            log("cluster-round-slow", ["worker": owner.worker, "seconds": String(format: "%.1f", took), "period": String(format: "%.1f", period)])
          }
        }
        usleep(50_000)
      }
      rounds.put(())
    }.start()
    Thread { [self] in
      // Partitions let go whose people are still open here.
      var lettingGo = Set<Int>()
      var lastIdleLook = clock.now()
      while loop.withLock({ $0.running }) {
        do {
          let pass = try worker.pass(wait: owner.held.isEmpty ? 0 : 0.2) { taken in self.takeUp(taken) }
          if !pass.taken.isEmpty || !pass.dropped.isEmpty {
            log("cluster-partitions", ["worker": owner.worker, "taken": pass.taken.map(String.init).joined(separator: ","),
              "dropped": pass.dropped.map(String.init).joined(separator: ","), "held": String(owner.held.count)])
          }
          for failure in pass.failures { log("cluster-apply-failed", ["worker": owner.worker, "detail": failure]) }
          lettingGo.formUnion(pass.dropped)
          if !lettingGo.isEmpty { lettingGo = letGo(lettingGo) }
          // Guests are looked at every round, and often enough for a short `cluster.idle`.
          if clock.now().timeIntervalSince(lastIdleLook) >= min(period, idleSeconds / 4) {
            lastIdleLook = clock.now()
            closeIdleGuests(except: lettingGo)
          }
          // Failures that come back at once (no stream leader yet) are not tried again at full speed.
          if pass.applied == 0 { usleep(owner.held.isEmpty ? 200_000 : pass.failures.isEmpty ? 20_000 : 500_000) }
        } catch {
          log("cluster-queue-failed", ["worker": owner.worker, "error": "\(error)"])
          usleep(500_000)
        }
      }
      passes.put(())
    }.start()
  }

  /// What /health says of the cluster.
  struct Health: Encodable {
    let worker: String
    let held: [Int]
    let applied: Int
    /// People whose store and engine are open here (their partitions', and any its API was asked about).
    let open: Int
    let table: PartitionTable?
  }

  var health: Health {
    Health(worker: owner.worker, held: owner.held.sorted(), applied: applied.withLock { $0 }, open: people.openCount, table: table.withLock { $0 })
  }

  /// The people of partitions just taken, before their first report here:
  /// what another worker wrote for them meanwhile is read first, and the
  /// reminders it left undelivered are sent.
  func takeUp(_ partitions: [Int]) {
    let taken = Set(partitions)
    for name in people.members.keys.sorted() where taken.contains(Partitioning.partition(of: name, count: ports.queue.partitions)) {
      // Reminders the worker before left undelivered are sent; its reports are let be as applied.
      do {
        // Opened here, by the worker that serves them, not at its start.
        guard let person = try people.person(name) else { continue }
        for notification in try person.refresh(log: { log("outbox", ["person": person.name, "detail": $0]) }) {
          log("fired", ["person": person.name, "task": notification.task.rawValue, "title": notification.title, "via": "takeover"])
        }
      } catch {
        log("cluster-refresh-failed", ["person": name, "error": "\(error)"])
      }
    }
  }

  /// The people of partitions another worker now holds (by the table of
  /// the last lease round) are closed here: engine stopped, deliveries
  /// under way let finish, store closed. So a worker keeps engines only for
  /// its share, though the first worker of a cluster starting takes every
  /// partition until the others join. A partition let go that nobody else
  /// holds yet keeps its people open (a lease that lapsed and is taken back
  /// costs no reopening) and is returned, to look at again after the next
  /// pass; so is one with a person a request is using (`People.using`),
  /// closed once it is done. On the pass thread, so none of their
  /// reports is being applied meanwhile.
  func letGo(_ partitions: Set<Int>) -> Set<Int> {
    let held = owner.held
    let others = table.withLock { $0 }?.workers.filter { $0.key != owner.worker }.values.reduce(into: Set<Int>()) { $0.formUnion($1) } ?? []
    var closing = partitions.subtracting(held).intersection(others)
    if !closing.isEmpty {
      let count = ports.queue.partitions
      // A person a request is using stays open until it is done: their partition is looked at again.
      let busy = people.close(drainSeconds: 2, log: log) { closing.contains(Partitioning.partition(of: $0, count: count)) }.busy
      closing.subtract(busy.map { Partitioning.partition(of: $0, count: count) })
    }
    return partitions.subtracting(held).subtracting(closing)
  }

  /// Closes the guests nobody asked for in `idleSeconds`: people of
  /// partitions this worker does not hold, opened for its API or an
  /// answer link. Without it a front that many people's pages and links
  /// reach would keep an engine for each of them. The people of
  /// partitions being let go (`letGo`) wait for another owner instead.
  func closeIdleGuests(except lettingGo: Set<Int> = []) {
    let count = ports.queue.partitions
    let held = owner.held
    let closed = people.closeIdle(for: idleSeconds, drainSeconds: 2, log: log) { name in
      let partition = Partitioning.partition(of: name, count: count)
      return !held.contains(partition) && !lettingGo.contains(partition)
    }
    if !closed.isEmpty { log("cluster-guests-closed", ["worker": owner.worker, "count": String(closed.count), "idle": String(Int(idleSeconds))]) }
  }

  /// Stops both loops after their current round and pass and gives every
  /// partition back at once, so the others take them at their next round.
  func stop() {
    let ended = loop.withLock { state -> [OneShot<Void>] in
      defer { state = (false, []) }
      return state.running ? state.ended : []
    }
    guard !ended.isEmpty else { return }
    for loop in ended { loop.take() }
    do { try owner.releaseAll() } catch { log("cluster-release-failed", ["worker": owner.worker, "error": "\(error)"]) }
  }

}

import Analytics
import Composition
import Domain
import Engine
import Foundation
import Geofencing
import Locking
import Notifications
import Persistence
import PushSinks

/// One person the daemon serves: their own store, engine, phone and sinks.
/// Nothing here is reachable from another person's requests.
final class Person: Sendable {
  let name: String
  /// The slice of the ticker's round this person is ticked in (`TickRound`), hashed once.
  let tickSlice: Int
  let settings: PersonSettings
  let store: any OperationStore
  /// The daemon's own store, shared by everyone: fixes are journalled there
  /// so concurrent reports from many people share one group commit.
  let journal: any OperationStore
  let engine: Engine
  let phone: PhoneService
  let queues: [DeliveryQueue]
  /// The kinds of sink this person's reminders go to (`ntfy`, `console`, …;
  /// never the rest of a spec, which may hold a secret topic or URL).
  let sinkKinds: [String]
  /// Whether any of them can reach the person (the registry says which
  /// cannot: a log, a file).
  let remindersReachPerson: Bool
  let laterDuration: TimeInterval
  let sessionConfig: SessionConfig
  /// How this person's phone last reached us: MQTT phones get commands
  /// pushed; HTTP phones collect them with their next answer.
  enum Transport: Equatable {
    case http
    case mqtt(device: String)
    /// A GPS or replay on this machine: nothing to send back.
    case local
  }

  var transport: Transport {
    get { transportState.withLock { $0 } }
    set { transportState.withLock { $0 = newValue } }
  }
  private let transportState = Locked(Transport.http)

  /// Serialises answers, so a token cannot be used twice at once.
  private let answering = Locked(())
  /// The recent history (`Person+History`).
  let recent = Locked<[RecordedEvent]>([])
  var lastFixKey: String { "fix.\(name)" }


  /// Sees every engine event of this person (the simulator's benchmark).
  let observer: (@Sendable ([ArrivalEvent]) -> Void)?
  /// Told what the engine could not do (a save that failed, tracking
  /// refused): the daemon's log, where an operator looks.
  let warn: @Sendable (String) -> Void

  /// Usage counts, when the operator switched them on (`analytics.daemon`)
  /// and this person allowed them (the map page asks at first use).
  let analytics: any AnalyticsSink
  static let analyticsKey = "analytics.consent"
  static let welcomedKey = "web.welcomed"
  /// Whether the operator collects usage counts at all (`analytics.daemon` on, a sink set).
  let analyticsOffered: Bool
  var analyticsAllowed: Bool { store.state().settings[Self.analyticsKey] == "allowed" }

  /// Told of every fix journalled, so raw positions leave the disk in time.
  let retention: FixRetention?
  /// Places suggested for a task's words (the map page), when the daemon has a place provider.
  let suggestions: SuggestionService?
  /// Saved lists imported from the map page, and the rows they leave to review.
  let imports: ImportService?
  let importJob = ImportJob()
  /// Each sink's reminders kept until they are delivered (`ReminderOutbox`).
  let outboxes: [ReminderOutbox]
  /// Brings a desktop sink's answers here; let go at `close`.
  let relay: AnswerRelay?

  /// Sends again the reminders a stop or a crash left undelivered
  /// (at start, and when taking the person over from another worker).
  @discardableResult
  func resendKept(log: @Sendable (String) -> Void) -> (resent: Int, dropped: Int) {
    ReminderOutbox.resend(outboxes, store: store, now: engine.context.clock.now(), log: log)
  }

  init(
    name: String, settings: PersonSettings, store: any OperationStore, journal: any OperationStore, context: EngineContext,
    scheduler: NotificationScheduler, arrival: ArrivalConfig, queues: [DeliveryQueue], laterDuration: TimeInterval,
    retention: FixRetention? = nil, analytics: any AnalyticsSink = NoopAnalytics(), observer: (@Sendable ([ArrivalEvent]) -> Void)? = nil,
    warn: @escaping @Sendable (String) -> Void = { _ in },
    suggestions: SuggestionService? = nil, imports: ImportService? = nil, analyticsOffered: Bool = false, sinkKinds: [String] = [],
    remindersReachPerson: Bool = true, outboxes: [ReminderOutbox] = [], relay: AnswerRelay? = nil
  ) {
    self.relay = relay
    tickSlice = TickRound.slice(of: name)
    self.outboxes = outboxes
    self.sinkKinds = sinkKinds
    self.remindersReachPerson = remindersReachPerson
    self.imports = imports
    self.name = name
    self.analyticsOffered = analyticsOffered
    self.suggestions = suggestions
    self.retention = retention
    self.analytics = analytics
    self.observer = observer
    self.warn = warn
    self.settings = settings
    self.store = store
    self.journal = journal
    self.queues = queues
    self.laterDuration = laterDuration
    sessionConfig = arrival.session
    engine = Engine(context: context)
    phone = PhoneService(context: context, scheduler: scheduler, config: arrival, capacity: settings.capacity)
    relay?.person = self
  }

  /// Handles one report. A location is written durably (to the shared
  /// journal) before anything else happens, so an acknowledged fix is
  /// never lost.
  /// `device` names the phone that sent it, when known: only a device listed
  /// in `remoteConfiguration` is switched to move mode for a session.
  /// `queued`: in a cluster, the report's place in the queue, its sequence
  /// journalled with the fix so a report applied again after a worker died
  /// is known.
  func receive(_ report: PhoneReport, device: String? = nil, queued: QueuedStep? = nil) throws -> PhoneService.Reply {
    let outcome = OneShot<Result<PhoneService.Reply, any Error>>()
    receive(report, device: device, queued: queued) { outcome.put($0) }
    return try outcome.take().get()
  }

  /// `receive`, answered through `done` instead of waiting: a location
  /// joins the journal's next group commit and the engine runs once it is
  /// durable, on whichever thread the journal answers on (the HTTP
  /// server's threads never wait for a disk).
  /// In a cluster a report is journalled only while its worker holds the
  /// person's partition and only if the journal holds no later one of
  /// this person's (`QueuedStep.superseded`, nothing else done): a worker
  /// finishing a report after its partition moved on may find the new
  /// owner already applied it and the next.
  func receive(
    _ report: PhoneReport, device: String? = nil, queued step: QueuedStep? = nil,
    then done: @escaping @Sendable (Result<PhoneService.Reply, any Error>) -> Void
  ) {
    let queued = step?.sequence
    guard case .location(let fix) = report else {
      guard let step else { return done(.success(process(report, device: device))) }
      // Its sequence is durable before its step, as a location's is with
      // the fix: applied again after a worker died, it is known and let be.
      return journalQueued([.put(.setting(key: lastQueuedKey, value: String(step.sequence)))], step: step, then: done) {
        [self] in
        otherQueued.withLock { $0 = max($0 ?? 0, step.sequence) }
        done(.success(process(report, device: device)))
      }
    }
    let text = SavedFix.journalText(fix, device: device, queued: queued)
    journalQueued([.put(.setting(key: lastFixKey, value: text))], step: step, then: done) { [self] in
      retention?.wrote()
      let saved = SavedFix(
        latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude, accuracy: fix.accuracy, at: fix.at.timeIntervalSince1970,
        battery: fix.battery.flatMap { $0 >= 0 ? $0 : nil }, charging: fix.charging, device: device, queued: queued)
      devicesSeen.withLock { seen in
        seen[device ?? ""] = saved
        // A person without a device list may name any device: keep the latest few.
        if seen.count > Self.devicesKept, let oldest = seen.min(by: { $0.value.at < $1.value.at })?.key { seen[oldest] = nil }
      }
      done(.success(process(report, device: device)))
    }
  }

  /// The engine's step for a report already journalled (or one that needs no journal).
  private func process(_ report: PhoneReport, device: String?) -> PhoneService.Reply {
    let reply = phone.receive(report, remoteConfiguration: device.map(settings.remoteConfiguration.contains) ?? false)
    record(reply.events)
    return reply
  }

  /// Stops the engine, lets queued deliveries go out (at most
  /// `drainSeconds`; a reminder not settled stays kept in the store for
  /// whoever opens the person next) and closes the store.
  func close(drainSeconds: TimeInterval, log: DaemonLog) {
    _ = phone.arrival.shutdown()
    for queue in queues where !queue.drain(timeout: drainSeconds) {
      log("delivery", ["person": name, "detail": "stopped with deliveries still queued"])
    }
    relay?.release()
    store.close()
  }

  /// Takes up this person after another worker served them: reads what
  /// was written meanwhile (their store and the shared journal's last
  /// fix), sends the reminders the last worker left undelivered, then
  /// plans from that fix and the tasks as they are now (the fix may
  /// remind: its step may not have run).
  /// Returns the reminders the restored fix fired.
  @discardableResult
  func refresh(log: @Sendable (String) -> Void) throws -> [ReminderNotification] {
    try store.refresh()
    try journal.refresh()
    resendKept(log: log)
    let fired = restoreLastFix()
    restoreLastQueued()
    record(phone.tasksChanged())
    return fired
  }

  /// Plans from the fix journalled before a restart, if there is one, and
  /// returns the reminders it fired (a fix whose step a crash cut short).
  @discardableResult
  func restoreLastFix() -> [ReminderNotification] {
    guard let text = journal.state().settings[lastFixKey],
      let saved = try? JSONDecoder().decodeOutside(SavedFix.self, from: Data(text.utf8)),
      let coordinate = try? Coordinate(latitude: saved.latitude, longitude: saved.longitude)
    else { return [] }
    devicesSeen.withLock { $0[saved.device ?? ""] = saved }
    let events = phone.restore(
      PhoneFix(coordinate: coordinate, accuracy: saved.accuracy, at: Date(timeIntervalSince1970: saved.at)),
      remoteConfiguration: saved.device.map(settings.remoteConfiguration.contains) ?? false)
    record(events)
    return events.compactMap {
      if case .reminder(.delivered(let notification)) = $0 { return notification }
      return nil
    }
  }

  /// Each device's last report since the daemon started (the one journalled
  /// before it, too), by name; "" for a report that named no device.
  var devices: [String: SavedFix] { devicesSeen.withLock { $0 } }
  let devicesSeen = Locked<[String: SavedFix]>([:])
  static let devicesKept = 16
  /// The sequence of the last report other than a location applied or
  /// found journalled for this person (`Person+QueueSequence`).
  let otherQueued = Locked<UInt64?>(nil)

  /// Applies a Mark Done / Remind Later link's answer, once.
  func answer(_ token: ActionToken, now: Date) throws(AnswerError) -> ReminderTask {
    try answering.withLock { _ throws(AnswerError) -> ReminderTask in try answerOnce(token, now: now) }
  }

  private func answerOnce(_ token: ActionToken, now: Date) throws(AnswerError) -> ReminderTask {
    guard token.p == name else { throw .forbidden }
    guard TimeInterval(token.e) >= now.timeIntervalSince1970 else { throw .expired }
    guard store.state().settings[token.usedKey] == nil else { throw .used }
    let task = try apply(token.a, task: token.t)
    do {
      // After the change: a crash in between leaves a link that can be
      // pressed again, which repeats a harmless answer; the other order
      // could lose the answer.
      try store.append([.put(.setting(key: token.usedKey, value: String(token.e)))])
    } catch {
      throw .failed("\(error)")
    }
    settled(task, action: token.a, at: now)
    return task
  }

  /// An answer from a button this daemon showed itself (the desktop).
  func answer(_ action: ReminderAction, task: TaskID) throws(AnswerError) -> ReminderTask {
    try answering.withLock { _ throws(AnswerError) -> ReminderTask in
      let done = try apply(action.identifier, task: task.rawValue)
      settled(done, action: action.identifier, at: engine.context.clock.now(), via: .desktop)
      return done
    }
  }

  private func apply(_ action: String, task: String) throws(AnswerError) -> ReminderTask {
    do {
      switch action {
      case ReminderAction.markDone.identifier:
        // Done twice (the link after the API, or two taps) is what was wanted: no change, no error.
        if let current = try? engine.tasks.get(task), case .completed = current.state { return current }
        return try engine.tasks.done(task)
      case "later": return try engine.tasks.later(task, for: laterDuration)
      default: throw AnswerError.unknownAction(action)
      }
    } catch let error as AnswerError {
      throw error
    } catch let error as DomainError {
      switch error {
      case .notFound: throw .notFound("\(error)")
      case .invalidTransition, .conflict: throw .conflict("\(error)")
      default: throw .failed("\(error)")
      }
    } catch {
      throw .failed("\(error)")
    }
  }

  private func settled(_ task: ReminderTask, action: String, at now: Date, via channel: Channel = .link) {
    if analyticsAllowed { analytics.record(.answered(action == "later" ? .later : .done, via: channel)) }
    recordLine(kind: "answer", detail: "\(action) via \(channel.rawValue)", at: now, task: task.id.rawValue)
    tasksChanged()
  }

  /// Tells the engine that the person's tasks or places changed (an API
  /// write, an answer, an import, a seed) and, in a cluster, the worker
  /// that owns the person, whose engine this may not be (`changeListener`).
  func tasksChanged() {
    record(phone.tasksChanged())
    changeListener.withLock { $0 }?(name)
  }

  /// Set by a cluster worker: passes a change on to the person's owner.
  let changeListener = Locked<(@Sendable (String) -> Void)?>(nil)

  /// In a cluster, on the owner: reads what a front wrote for this person
  /// and replans (not passed on again).
  func reread() throws {
    try store.refresh()
    record(phone.tasksChanged())
  }

  enum AnswerError: Error, Equatable {
    case forbidden, expired, used
    case unknownAction(String)
    case notFound(String)
    /// The task's state does not allow the answer (Remind Later on a done task).
    case conflict(String)
    case failed(String)
  }

  func tick() { record(phone.tick()) }
}

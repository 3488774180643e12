import Domain
import Engine
import Foundation
import Gateway
import Geofencing
import Locking
import OwnTracks
import WebApp

/// Routes the daemon's HTTP requests: OwnTracks reports, answer buttons,
/// health, and each person's JSON API. Every refusal is a JSON error with
/// the right 4xx and leaves the store as it was.
final class DaemonHandler: HTTPHandler, Sendable {
  let people: People
  let signer: any TokenSigner
  let clock: @Sendable () -> Date
  let log: DaemonLog
  let started: Date
  /// The MQTT connection's state, when MQTT is configured.
  let mqttStatus: (@Sendable () -> MQTTIngest.State)?
  /// The map page's files and its signed-in sessions.
  let web: WebAssets
  let sessions: WebSessions
  /// Cookies only over TLS when the public URL is https (behind a proxy).
  let secureCookies: Bool
  /// Where requests that wait go, so the server's threads never do: password
  /// checks (slow on purpose, bounded by the people's gate) apart from
  /// everything else that may wait for a disk.
  let passwordWork: WorkerPool
  let otherWork: WorkerPool
  /// In a cluster: reports go to the shared queue, not to the engine here.
  let cluster: ClusterIngest?

  init(
    people: People, signer: any TokenSigner, clock: @escaping @Sendable () -> Date, log: DaemonLog,
    mqttStatus: (@Sendable () -> MQTTIngest.State)? = nil, web: WebAssets = WebAssets(), sessions: WebSessions = WebSessions(),
    secureCookies: Bool = false, cluster: ClusterIngest? = nil
  ) {
    self.cluster = cluster
    self.mqttStatus = mqttStatus
    self.web = web
    self.sessions = sessions
    self.secureCookies = secureCookies
    self.people = people
    self.signer = signer
    self.clock = clock
    self.log = log
    started = clock()
    passwordWork = WorkerPool(name: "password checks", threads: people.gate.running, queued: people.gate.waiting)
    otherWork = WorkerPool(name: "requests", threads: 16, queued: 1024)
  }

  /// Health is answered at once; an OwnTracks report from a phone whose
  /// credentials need no password check is decoded here and answered when
  /// the journal made it durable; everything else runs on a worker.
  func handle(_ request: HTTPRequest, answer: @escaping @Sendable (HTTPResponse) -> Void) {
    let path = request.path
    if request.method == "GET", path == "/health" { return answer(handle(request)) }
    let quick = request.header("authorization") == nil ? nil : people.authenticateQuickly(request)
    if request.method == "POST", path == "/owntracks" || path == "/pub", let quick {
      switch quick {
      // A journal that would make the report wait for its disk here sends it to a worker instead.
      // In a cluster the report waits for the queue's replicas instead: a worker thread.
      case .success(let member) where people.journalAnswersLater && cluster == nil: return ownTracks(request, member: member, answer: answer)
      case .success: break
      case .failure(let refusal): return answer(self.answer(refusal, request: request, basic: true))
      }
    }
    let needsPassword = (request.header("authorization") != nil && quick == nil) || (request.method == "POST" && path == "/web/session")
    let pool = needsPassword ? passwordWork : otherWork
    let accepted = pool.submit {
      let response = self.route(request, quick: quick)
      return { answer(response) }
    }
    guard accepted else {
      var busy = HTTPResponse.failure(503, needsPassword ? "many logins are being checked at once (a restart?); try again in a second" : "the server is busy; try again in a second")
      busy.headers["Retry-After"] = "1"
      return answer(busy)
    }
  }

  func handle(_ request: HTTPRequest) -> HTTPResponse { route(request, quick: nil) }

  /// `quick`: what `People.authenticateQuickly` already answered for this
  /// request on the server's thread (nil: not asked, or a password check is due).
  private func route(_ request: HTTPRequest, quick: Result<Member, People.Refusal>?) -> HTTPResponse {
    let segments = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    switch (request.method, segments.first) {
    case ("GET", "health"?) where segments.count == 1:
      let mqtt = mqttStatus.map { status -> String in
        switch status() {
        case .connected: return "connected"
        case .connecting(let error): return "connecting: \(error)"
        case .stopped: return "stopped"
        }
      }
      return .json(
        200, encoding: Health(status: "ready", people: people.members.count, uptime: Int(clock().timeIntervalSince(started)), mqtt: mqtt, cluster: cluster?.health))
    case ("POST", "owntracks"?) where segments.count == 1, ("POST", "pub"?) where segments.count == 1:
      return authenticated(request, quick: quick) { self.ownTracks(request, member: $0) }
    case ("POST", "actions"?) where segments.count == 2:
      return answer(token: segments[1])
    case (_, "actions"?) where segments.count == 2:
      return .failure(405, "answer with POST; opening the link does nothing")
    case (_, "api"?):
      return authenticated(request, orSession: true, quick: quick) { member in
        opened(member) { PersonAPI(person: $0, clock: self.clock).handle(request, path: Array(segments.dropFirst())) }
      }
    case ("GET", nil), ("HEAD", nil):
      return HTTPResponse(status: 302, headers: ["Location": "/app/"])
    case ("GET", "app"?), ("HEAD", "app"?):
      // `/app` without its slash would resolve the page's relative links against `/`.
      if segments.count == 1, !request.path.hasSuffix("/") { return HTTPResponse(status: 301, headers: ["Location": "/app/"]) }
      return web.response(for: segments.dropFirst().joined(separator: "/")) ?? .failure(404, "no such file: \(request.path)")
    case (_, "web"?) where segments.count == 2 && segments[1] == "session":
      return WebSignIn(handler: self).handle(request)
    case (_, "owntracks"?), (_, "pub"?), (_, "health"?), (_, "app"?):
      return .failure(405, "\(request.method) is not allowed on \(request.path)")
    default:
      return .failure(404, "no such endpoint: \(request.path)")
    }
  }

  struct Health: Encodable {
    let status: String
    let people: Int
    let uptime: Int
    /// "connected", or "connecting: WHY" while the broker cannot be reached; absent without MQTT.
    let mqtt: String?
    /// In a cluster: this worker, its partitions, and who held which at its last round.
    let cluster: ClusterIngest.Health?
  }

  /// The person a request comes from: HTTP Basic (phones, scripts), or
  /// with `orSession` the web page's session cookie, whose changes must
  /// carry the session's CSRF token (another site's form cannot read it).
  private func authenticated(
    _ request: HTTPRequest, orSession: Bool = false, quick: Result<Member, People.Refusal>? = nil, _ body: (Member) -> HTTPResponse
  ) -> HTTPResponse {
    if orSession, request.header("authorization") == nil, let cookie = WebSessions.cookie(in: request.header("cookie")) {
      guard let session = sessions.find(cookie, now: clock()), let person = people.members[session.person] else {
        return .failure(401, "the session has ended; sign in again")
      }
      if !["GET", "HEAD"].contains(request.method) {
        guard let token = request.header("x-csrf-token"), WebSessions.same(token, session.csrf) else {
          return .failure(403, "a change from the page must carry the session's X-CSRF-Token")
        }
      }
      return body(person)
    }
    switch quick ?? people.authenticate(request, now: clock()) {
    case .success(let person): return body(person)
    case .failure(let refusal): return answer(refusal, request: request, basic: true)
    }
  }

  /// Why a person could not be opened, as the answer to give.
  struct Unopened: Error {
    let response: HTTPResponse
  }

  /// `member`'s store and engine, opened now if need be; a 503 when they
  /// cannot be (their store out of reach).
  private func open(_ member: Member) -> Result<Person, Unopened> {
    do {
      guard let person = try people.person(member.name) else { return .failure(unconfigured(member)) }
      return .success(person)
    } catch {
      return .failure(unopenable(member, error))
    }
  }

  /// `body` with `member`'s store and engine (`open`), or why not. The
  /// person is not closed while `body` runs (`People.using`): a cluster
  /// worker letting them go waits for it.
  private func opened(_ member: Member, _ body: (Person) -> HTTPResponse) -> HTTPResponse {
    do {
      return try people.using(member.name, body) ?? unconfigured(member).response
    } catch {
      return unopenable(member, error).response
    }
  }

  private func unconfigured(_ member: Member) -> Unopened {
    Unopened(response: .failure(404, "'\(member.name)' is no longer configured"))
  }

  private func unopenable(_ member: Member, _ error: any Error) -> Unopened {
    log("open-failed", ["person": member.name, "error": "\(error)"])
    var busy = HTTPResponse.failure(503, "\(member.name)'s store cannot be opened now; try again shortly")
    busy.headers["Retry-After"] = "5"
    return Unopened(response: busy)
  }

  /// A refused login as HTTP. `basic` asks for Basic credentials (which
  /// makes a browser show its own dialog: never for the page's sign-in).
  func answer(_ refusal: People.Refusal, request: HTTPRequest, basic: Bool) -> HTTPResponse {
    var response: HTTPResponse
    switch refusal {
    case .missing:
      response = .failure(401, "credentials required (HTTP Basic)")
    case .wrong:
      log("login-failed", ["client": request.clientAddress])
      response = .failure(401, "wrong user name or password")
    case .busy:
      response = .failure(503, "many logins are being checked at once (a restart?); try again in a second")
      response.headers["Retry-After"] = "1"
    case .slowed(let wait):
      response = .failure(429, "too many failed logins; try again in \(wait) s")
      response.headers["Retry-After"] = String(wait)
    }
    if basic, response.status == 401 { response.headers["WWW-Authenticate"] = "Basic realm=\"WhileHere\", charset=\"UTF-8\"" }
    return response
  }

  /// One OwnTracks message. The answer carries the waypoint commands when
  /// the plan changed since this phone's last answer.
  private func ownTracks(_ request: HTTPRequest, member: Member) -> HTTPResponse {
    let answered = OneShot<HTTPResponse>()
    ownTracks(request, member: member) { answered.put($0) }
    return answered.take()
  }

  /// In a cluster a front queues the report for the partition's owner and
  /// opens nothing; a single daemon applies it to the person's engine.
  private func ownTracks(_ request: HTTPRequest, member: Member, answer: @escaping @Sendable (HTTPResponse) -> Void) {
    if let claimed = request.header("x-limit-u") ?? request.query["u"], claimed != member.name {
      return answer(.failure(403, "'\(member.name)' cannot report as '\(claimed)'"))
    }
    let device = request.header("x-limit-d") ?? request.query["d"]
    if !member.settings.devices.isEmpty, !member.settings.devices.contains(device ?? "") {
      return answer(.failure(403, "device '\(device ?? "")' is not one of \(member.name)'s devices (\(member.settings.devices.joined(separator: ", ")))"))
    }
    // Apps sometimes post nothing; that is not an error.
    guard !request.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return answer(.json(200, Data("[]".utf8))) }
    let envelope = OwnTracksEnvelope(person: member.name, secret: member.settings.encryptionKey)
    let report: PhoneReport
    let body: Data
    let sealed: Bool
    do {
      (report, body, sealed) = try envelope.decode(request.body, now: clock())
    } catch {
      return answer(.failure(400, "\(error)"))
    }
    // A phone that sealed its report gets its answer sealed.
    let reply: @Sendable (Data) -> Data = { commands in sealed ? envelope.seal(commands) : commands }
    if let cluster {
      do {
        return answer(.json(200, reply(try cluster.front(body, person: member.name, device: device, via: .http))))
      } catch {
        log("cluster-queue-failed", ["person": member.name, "error": "\(error)"])
        var busy = HTTPResponse.failure(503, "the report could not be queued; send it again")
        busy.headers["Retry-After"] = "1"
        return answer(busy)
      }
    }
    let person: Person
    switch open(member) {
    case .success(let opened): person = opened
    case .failure(let unopened): return answer(unopened.response)
    }
    person.transport = .http
    person.receive(report, device: device) { [self] received in
      let got: PhoneService.Reply
      switch received {
      case .success(let received): got = received
      case .failure(let error):
        log("store-failed", ["person": person.name, "error": "\(error)"])
        return answer(.failure(503, "the report could not be stored; send it again"))
      }
      for notification in got.reminders {
        log("fired", ["person": person.name, "task": notification.task.rawValue, "title": notification.title])
      }
      if !got.commands.isEmpty {
        log("commands", ["person": person.name, "count": String(got.commands.count)])
      }
      answer(.json(200, reply(OwnTracksCodec.encode(got.commands))))
    }
  }

  private func answer(token text: String) -> HTTPResponse {
    guard let token = ActionToken.open(text, with: signer) else { return .failure(403, "this link was not made by this server, or was changed") }
    guard let member = people.members[token.p] else { return .failure(404, "the person this link was made for is no longer configured") }
    return opened(member) { answer(token, person: $0) }
  }

  private func answer(_ token: ActionToken, person: Person) -> HTTPResponse {
    do {
      let task = try person.answer(token, now: clock())
      log("answered", ["person": person.name, "task": task.id.rawValue, "action": token.a])
      return .json(200, encoding: Answer(task: task.id.rawValue, title: task.title, action: token.a, state: task.state.name))
    } catch {
      switch error {
      case .forbidden: return .failure(403, "this link belongs to someone else")
      case .expired: return .failure(410, "this link has expired")
      case .used: return .failure(409, "this link was already used")
      case .unknownAction(let action): return .failure(400, "unknown answer '\(action)'")
      case .notFound(let reason): return .failure(404, reason)
      case .conflict(let reason): return .failure(409, reason)
      case .failed(let reason): return .failure(503, "the answer could not be stored: \(reason)")
      }
    }
  }

  struct Answer: Encodable {
    let task: String
    let title: String
    let action: String
    let state: String
  }
}

import Domain
import Engine
import Foundation
import Gateway
import Geofencing
import Persistence

/// `/api/v1/…`: one person's tasks, places, plan and history as JSON
/// (Docs/openapi.yaml). Reached only through that person's credentials, so
/// nobody can name another person's data.
struct PersonAPI {
  let person: Person
  let clock: @Sendable () -> Date

  func handle(_ request: HTTPRequest, path: [String]) -> HTTPResponse {
    guard path.first == "v1" else { return .failure(404, "the API lives under /api/v1") }
    let rest = Array(path.dropFirst())
    do {
      switch (request.method, rest.count, rest.first) {
      case ("GET", 1, "tasks"):
        let filterName = request.query["state"] ?? "all"
        guard let filter = TaskService.Filter(rawValue: filterName) else {
          return .failure(400, "state must be one of \(TaskService.Filter.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return .json(200, encoding: person.engine.tasks.list(filter).map(summary))
      case ("POST", 1, "tasks"):
        let body = try decode(NewTask.self, request.body)
        let specs = try body.locations.map(spec)
        let task = try person.engine.tasks.add(
          title: body.title, locations: specs, notes: body.notes ?? "", onlyWhileOpen: body.onlyWhileOpen ?? false)
        person.tasksChanged()
        return .json(201, encoding: summary(task))
      case ("PATCH", 2, "tasks"):
        let body = try decode(TaskEdit.self, request.body)
        let task = try person.engine.tasks.edit(rest[1], title: body.title, notes: body.notes, onlyWhileOpen: body.onlyWhileOpen)
        person.tasksChanged()
        return .json(200, encoding: summary(task))
      case ("POST", 3, "tasks") where rest[2] == "locations":
        let task = try person.engine.tasks.addLocation(rest[1], try spec(try decode(NewTask.Location.self, request.body)))
        person.tasksChanged()
        return .json(201, encoding: summary(task))
      case ("PATCH", 4, "tasks") where rest[2] == "locations":
        return try editLocation(task: rest[1], location: rest[3], try decode(LocationEdit.self, request.body))
      case ("DELETE", 4, "tasks") where rest[2] == "locations":
        let task = try person.engine.tasks.removeLocation(rest[1], location: rest[3])
        person.tasksChanged()
        return .json(200, encoding: summary(task))
      case ("GET", 1, "undo"):
        return .json(200, encoding: person.engine.undo.entries().map(UndoView.init))
      case ("POST", 1, "undo"):
        // The newest change, or the one whose key the page was given.
        let key = request.body.isEmpty ? nil : try decode(UndoRequest.self, request.body).key
        let entry = try person.engine.undo.undo(key)
        person.tasksChanged()
        return .json(200, encoding: UndoView(entry))
      case ("GET", 1, "preferences"):
        return .json(200, encoding: preferences())
      case ("PUT", 1, "preferences"):
        let change = try decode(PreferencesChange.self, request.body)
        var settings: [StoreOperation] = []
        if let analytics = change.analytics {
          guard ["allowed", "declined"].contains(analytics) else { return .failure(400, "analytics must be allowed or declined") }
          settings.append(.put(.setting(key: Person.analyticsKey, value: analytics)))
        }
        if change.welcomed == true { settings.append(.put(.setting(key: Person.welcomedKey, value: "yes"))) }
        if !settings.isEmpty { try person.store.append(settings) }
        return .json(200, encoding: preferences())
      case ("GET", 1, "suggestions"):
        return try suggestions(request.query)
      case (_, _, "imports"):
        return try ImportAPI(person: person).handle(request, path: Array(rest.dropFirst()))
      case ("GET", 2, "tasks"):
        return .json(200, encoding: summary(try person.engine.tasks.get(rest[1])))
      case ("DELETE", 2, "tasks"):
        let task = try person.engine.tasks.delete(rest[1])
        person.tasksChanged()
        return .json(200, encoding: summary(task))
      case ("POST", 3, "tasks"):
        let task: ReminderTask
        switch rest[2] {
        case "done": task = try person.engine.tasks.done(rest[1])
        case "reopen": task = try person.engine.tasks.reopen(rest[1])
        case "later":
          let later = request.body.isEmpty ? Later(seconds: nil, nextVisit: nil) : try decode(Later.self, request.body)
          if later.nextVisit == true {
            guard later.seconds == nil else { return .failure(400, "give seconds or nextVisit, not both") }
            task = try person.engine.tasks.get(rest[1])
            let state = task.state.effective(at: clock())
            guard state == .active else {
              return .failure(409, "task '\(task.title)' is \(state.name): only an active task waits for the next visit")
            }
            person.noteAnswer("visit", task: task.id)
            return .json(200, encoding: summary(task))
          }
          let seconds = later.seconds ?? person.laterDuration
          guard seconds > 0, seconds <= 30 * 86_400 else { return .failure(400, "seconds must be between 1 and 2592000") }
          task = try person.engine.tasks.later(rest[1], for: seconds)
        default:
          return .failure(404, "no such task action '\(rest[2])' (done, later, reopen)")
        }
        person.noteAnswer(rest[2], task: task.id)
        person.tasksChanged()
        return .json(200, encoding: summary(task))
      case ("GET", 1, "places"):
        let places = person.engine.places
        switch request.query["form"] ?? "store" {
        case "store": return .json(200, encoding: places.all())
        case "summary":
          // As `whilehere place list --json` prints them, with their lists' names (the map page).
          let now = clock()
          let lists = try places.listsByPlace()
          return .json(200, encoding: places.all().map { PlaceView($0, lists: lists[$0.id, default: []].map(\.name), now: now) })
        default: return .failure(400, "form must be store or summary")
        }
      case ("PATCH", 2, "places"):
        let edit = try decode(PlaceEdit.self, request.body)
        let places = person.engine.places
        var place = try places.edit(rest[1], name: edit.name, address: edit.address, note: edit.note)
        if let adding = edit.addTags, !adding.isEmpty { place = try places.tag(place.id.rawValue, adding) }
        if let removing = edit.removeTags, !removing.isEmpty { place = try places.untag(place.id.rawValue, removing) }
        return .json(200, encoding: PlaceView(place, lists: try places.lists(of: place.id).map(\.name), now: clock()))
      case ("DELETE", 2, "places"):
        // Refused (409) while a task uses it; undone with /api/v1/undo.
        let place = try person.engine.places.delete(rest[1])
        return .json(200, encoding: ["deleted": place.name, "id": place.id.rawValue])
      case ("DELETE", 2, "lists"):
        let keep = request.query["keepPlaces"] == "true"
        let deletion = try person.engine.places.lists.delete(rest[1], keepPlaces: keep)
        return .json(
          200,
          encoding: ListDeletionView(
            list: deletion.list.name, placesRemoved: deletion.placesRemoved.map(\.name).sorted(), placesKept: deletion.placesKept))
      case ("POST", 1, "lists"):
        let list = try person.engine.places.lists.create(try decode(NewList.self, request.body).name)
        return .json(201, encoding: ListView(id: list.id.rawValue, name: list.name, places: []))
      case ("PUT", 4, "lists") where rest[2] == "places":
        let (list, place) = try person.engine.places.lists.add(place: rest[3], to: rest[1])
        return .json(200, encoding: ["list": list.name, "place": place.id.rawValue])
      case ("DELETE", 4, "lists") where rest[2] == "places":
        let (list, place) = try person.engine.places.lists.remove(place: rest[3], from: rest[1])
        return .json(200, encoding: ["list": list.name, "place": place.id.rawValue])
      case ("GET", 1, "lists"):
        let state = person.store.state()
        let views = try person.engine.places.lists.all().map { entry in
          ListView(
            id: entry.list.id.rawValue, name: entry.list.name,
            places: state.places(inList: entry.list.id).map(\.rawValue).sorted())
        }
        return .json(200, encoding: views)
      case ("GET", 1, "plan"):
        return .json(200, encoding: PlanView(person.phone.arrival.currentPlan))
      case ("GET", 1, "events"):
        return .json(200, encoding: person.history)
      case ("GET", 1, "status"):
        return .json(200, encoding: StatusView(person: person, now: clock()))
      case ("GET", 1, "store"):
        return .json(200, encoding: StoreView(replica: person.store.replica.rawValue, latest: person.store.state().latest?.description))
      case ("GET", 1, "operations"):
        var since: HLCTimestamp?
        if let text = request.query["since"], !text.isEmpty {
          guard let stamp = HLCTimestamp(parsing: text) else { return .failure(400, "since must be a stamp such as 001780000000000-000000-REPLICA") }
          since = stamp
        }
        return .json(200, encoding: try person.store.operations(since: since))
      case ("POST", 1, "operations"):
        let batch = try decode(OperationBatch.self, request.body)
        let records: [OperationRecord]
        switch (batch.append, batch.merge) {
        case (let operations?, nil): records = try person.store.append(operations.map(\.operation))
        case (nil, let incoming?):
          try FutureStampCheck.check(incoming, now: clock())
          records = try person.store.merge(incoming)
        default: return .failure(400, "send exactly one of 'append' and 'merge'")
        }
        if !records.isEmpty { person.tasksChanged() }
        return .json(200, encoding: records)
      default:
        return .failure(404, "no such endpoint: \(request.method) \(request.path)")
      }
    } catch let error as DomainError {
      switch error {
      case .notFound: return .failure(404, "\(error)")
      // The task is in a state that does not allow it: a conflict, not bad input.
      case .invalidTransition, .conflict: return .failure(409, "\(error)")
      default: return .failure(400, "\(error)")
      }
    } catch let error as APIError {
      return .failure(400, error.reason)
    } catch let error as FutureStampError {
      return .failure(400, "\(error)")
    } catch StoreError.closed {
      return .failure(503, "the daemon is stopping")
    } catch {
      return .failure(503, "the change could not be stored: \(error)")
    }
  }

  /// A new location: `lat,lon`, a saved place's id or name, or a place of
  /// the map data by its provider ref (saved once, then reused).
  func spec(_ location: NewTask.Location) throws -> LocationSpec {
    if let ref = location.ref {
      guard let suggestions = person.suggestions, let id = try suggestions.save(ref: ref) else {
        throw APIError(reason: "no place '\(ref)' in the map data")
      }
      return LocationSpec(target: .place(id.rawValue), radius: location.radius)
    }
    guard let at = location.at else { throw APIError(reason: "a location needs 'at' (lat,lon or a saved place) or 'ref' (a suggested place)") }
    return LocationSpec(target: try LocationSpec.Target(parsing: at), radius: location.radius)
  }

  /// A pin dragged (lat and lon), a radius resized, a place reordered or
  /// switched off: each given field is one change, in that order.
  func editLocation(task reference: String, location: String, _ edit: LocationEdit) throws -> HTTPResponse {
    let tasks = person.engine.tasks
    var task = try tasks.get(reference)
    switch (edit.lat, edit.lon) {
    case (let lat?, let lon?): task = try tasks.move(task.id.rawValue, location: location, to: try Coordinate(latitude: lat, longitude: lon))
    case (nil, nil): break
    default: throw APIError(reason: "moving a pin needs both 'lat' and 'lon'")
    }
    if let radius = edit.radius { task = try tasks.setRadius(task.id.rawValue, location: location, meters: radius) }
    if let priority = edit.priority { task = try tasks.reorder(task.id.rawValue, location: location, priority: priority) }
    if let enabled = edit.enabled { task = try tasks.setEnabled(task.id.rawValue, location: location, enabled: enabled) }
    person.tasksChanged()
    return .json(200, encoding: summary(task))
  }

  /// Places for a task's words around a point (the map's centre or the
  /// person's last position), best fit first.
  func suggestions(_ query: [String: String]) throws -> HTTPResponse {
    guard let text = query["q"], !text.trimmingCharacters(in: .whitespaces).isEmpty else { return .failure(400, "say what to look for with q=") }
    guard let lat = query["lat"].flatMap(Double.init), let lon = query["lon"].flatMap(Double.init) else {
      return .failure(400, "say around where with lat= and lon=")
    }
    let point = try Coordinate(latitude: lat, longitude: lon)
    let radius = query["radius"].flatMap(Double.init).map { min(max($0, 100), 10_000) } ?? 2000
    guard let service = person.suggestions else { return .json(200, encoding: [NumberedPlaceView]()) }
    let found = try service.suggest(text, near: point, radius: radius, limit: 10)
    return .json(200, encoding: NumberedPlaceView.suggestions(found, at: clock(), in: .current))
  }

  /// A change that can be put back (a delete, a Mark Done), for 30 days.
  struct UndoView: Encodable {
    let key: String
    let label: String
    let at: Date

    init(_ entry: UndoJournal.Entry) {
      key = entry.key
      label = entry.label
      at = entry.at
    }
  }

  struct UndoRequest: Decodable {
    let key: String?
  }

  struct PlaceEdit: Decodable {
    let name: String?
    let address: String?
    let note: String?
    let addTags: [String]?
    let removeTags: [String]?
  }

  struct NewList: Decodable {
    let name: String
  }

  struct TaskEdit: Decodable {
    let title: String?
    let notes: String?
    let onlyWhileOpen: Bool?
  }

  struct LocationEdit: Decodable {
    let lat: Double?
    let lon: Double?
    let radius: Double?
    let priority: Int?
    let enabled: Bool?
  }

  func summary(_ task: ReminderTask) -> TaskSummary {
    TaskSummary(task, state: person.store.state(), now: clock(), timeZone: person.engine.context.timeZone)
  }

  struct NewTask: Decodable {
    struct Location: Decodable {
      /// `lat,lon` or a saved place's id or name.
      let at: String?
      /// A suggested place of the map data (`ref` of /api/v1/suggestions).
      let ref: String?
      let radius: Double?
    }

    let title: String
    let notes: String?
    let locations: [Location]
    let onlyWhileOpen: Bool?
  }

  /// `whilehere --server`: the person's store over HTTP. Stamps in an
  /// `append` are placeholders; the server stamps the batch as one unit.
  struct OperationBatch: Decodable {
    let append: [OperationRecord]?
    let merge: [OperationRecord]?
  }

  struct StoreView: Encodable {
    let replica: String
    let latest: String?
  }

  struct Later: Decodable {
    let seconds: Double?
    /// "Next time I am here": no snooze; the reminder already shown for
    /// this visit keeps it quiet until the person leaves and comes back.
    let nextVisit: Bool?
  }

  struct ListDeletionView: Encodable {
    let list: String
    /// Places only in this list and used by no task, removed with it.
    let placesRemoved: [String]
    let placesKept: Int
  }

  struct APIError: Error {
    let reason: String
  }

  private func decode<T: Decodable>(_ type: T.Type, _ body: Data) throws -> T { try Self.decode(type, body) }

  static func decode<T: Decodable>(_ type: T.Type, _ body: Data) throws -> T {
    do {
      // Dates as the answers write them (ISO-8601), so records round-trip.
      let decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .iso8601
      return try decoder.decodeOutside(type, from: body)
    } catch DecodingError.keyNotFound(let key, _) {
      throw APIError(reason: "the body lacks '\(key.stringValue)'")
    } catch DecodingError.typeMismatch(_, let context) {
      throw APIError(reason: "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type")
    } catch {
      throw APIError(reason: "the body is not the JSON object this endpoint takes")
    }
  }

  struct ListView: Encodable {
    let id: String
    let name: String
    let places: [String]
  }
}

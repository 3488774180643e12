import Domain
import Engine
import Foundation
import Gateway

/// `/api/v1/imports…`: upload a saved list (its bytes as the body), watch
/// and cancel the import, and settle the rows it could not match alone.
struct ImportAPI {
  let person: Person

  func handle(_ request: HTTPRequest, path: [String]) throws -> HTTPResponse {
    guard let imports = person.imports else { return .failure(503, "imports need a place provider") }
    switch (request.method, path.first, path.count) {
    case ("POST", nil, 0):
      guard let file = request.query["file"], !file.isEmpty, !file.contains("/") else {
        return .failure(400, "name the file with file= (its extension says its format: .csv, .json, .geojson, .kml, .gpx)")
      }
      guard !request.body.isEmpty else { return .failure(400, "the body is empty: send the file's bytes") }
      let list = request.query["list"].flatMap { $0.isEmpty ? nil : $0 }
      let person = self.person
      guard person.importJob.start(request.body, file: file, listName: list, imports: imports, finished: { person.tasksChanged() }) else {
        return .failure(409, "an import is already running; wait for it or cancel it")
      }
      return .json(202, encoding: person.importJob.current)
    case ("GET", "current"?, 1):
      return .json(200, encoding: person.importJob.current)
    case ("DELETE", "current"?, 1):
      guard person.importJob.cancel() else { return .failure(409, "no import is running") }
      return .json(202, encoding: person.importJob.current)
    case ("GET", "review"?, 1):
      let state = person.store.state()
      let rows = imports.pending().map { entry in Row(entry, list: state.lists[entry.list]?.name, imports: imports) }
      return .json(200, encoding: rows)
    case ("POST", "review"?, 2):
      let decision = try PersonAPI.decode(Decision.self, request.body)
      let entry: SourceEntry
      switch decision.action {
      case "accept":
        guard let number = decision.candidate else { return .failure(400, "accept needs 'candidate' (its number, from 1)") }
        entry = try imports.accept(path[1], candidate: number)
      case "search":
        guard let query = decision.query, !query.isEmpty else { return .failure(400, "search needs 'query'") }
        entry = try imports.searchAgain(path[1], query: query)
      case "enter":
        guard let name = decision.name, let lat = decision.lat, let lon = decision.lon else {
          return .failure(400, "enter needs 'name', 'lat' and 'lon'")
        }
        entry = try imports.enter(path[1], name: name, at: try Coordinate(latitude: lat, longitude: lon))
      case "reject":
        entry = try imports.reject(path[1])
      default:
        return .failure(400, "action must be accept, search, enter or reject")
      }
      return .json(200, encoding: Row(entry, list: person.store.state().lists[entry.list]?.name, imports: imports))
    default:
      return .failure(404, "no such endpoint: \(request.method) \(request.path)")
    }
  }

  struct Decision: Decodable {
    let action: String
    let candidate: Int?
    let query: String?
    let name: String?
    let lat: Double?
    let lon: Double?
  }

  /// A row as `import review --json` prints it, with each candidate's address.
  struct Row: Encodable {
    let id: String
    let title: String
    let note: String
    let list: String?
    let source: String
    let line: Int
    let state: String
    let candidates: [NumberedPlaceView]

    init(_ entry: SourceEntry, list: String?, imports: ImportService) {
      id = entry.id
      title = entry.title
      note = entry.note
      self.list = list
      source = entry.source
      line = entry.line
      switch entry.state {
      case .candidates(let found):
        state = entry.decided ? "decided" : "candidates"
        candidates = found.enumerated().map { index, candidate in
          NumberedPlaceView(
            number: index + 1, ref: candidate.ref, name: candidate.name, category: candidate.category,
            address: imports.address(ofCandidate: candidate.ref), at: candidate.coordinate, score: candidate.score)
        }
      case .unresolved: state = "unresolved"; candidates = []
      case .matched: state = "matched"; candidates = []
      case .rejected: state = "rejected"; candidates = []
      }
    }
  }
}

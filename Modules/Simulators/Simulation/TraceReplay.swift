import Domain
import Foundation
import Importing

/// Real recorded tracks (../shared/data/traces/*.jsonl) as trips: one
/// position a second, interpolated between fixes. Fixes worse than
/// `maxAccuracy` or implying a jump faster than `maxSpeed` are left out of
/// the path (they are the noise the engine must survive, not where the
/// person was); gaps longer than five minutes hold the last position.
public enum TraceReplay {
  public static func trip(jsonl path: String, maxAccuracy: Double = 100, maxSpeed: Double = 70) throws -> Trip {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw ScenarioError(source: path, message: "cannot read the trace", kind: "trace")
    }
    let formatter = ISO8601DateFormatter()
    var fixes: [(Date, Coordinate)] = []
    for (number, line) in text.split(separator: "\n").enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
      guard case .object(let object)? = try? JSONParser.parse(Data(line.utf8)),
        case .string(let t)? = object["t"], let date = formatter.date(from: t),
        case .number(let lat)? = object["lat"], case .number(let lon)? = object["lon"],
        let point = try? Coordinate(latitude: lat, longitude: lon)
      else { throw ScenarioError(source: "\(path):\(number + 1)", message: "expected {\"t\": ISO-8601, \"lat\", \"lon\", \"acc\"}", kind: "trace") }
      if case .number(let accuracy)? = object["acc"], accuracy > maxAccuracy { continue }
      if let last = fixes.last {
        let seconds = date.timeIntervalSince(last.0)
        guard seconds > 0 else { continue }
        if last.1.distance(to: point) / seconds > maxSpeed { continue }
      }
      fixes.append((date, point))
    }
    guard let first = fixes.first else { throw ScenarioError(source: path, message: "no usable fixes", kind: "trace") }
    var positions: [Coordinate] = [first.1]
    for (previous, next) in zip(fixes, fixes.dropFirst()) {
      let seconds = Int(next.0.timeIntervalSince(previous.0).rounded())
      guard seconds > 0 else { continue }
      for s in 1...seconds {
        let f = seconds > 300 ? 0 : Double(s) / Double(seconds)
        let lat = previous.1.latitude + (next.1.latitude - previous.1.latitude) * f
        let lon = previous.1.longitude + (next.1.longitude - previous.1.longitude) * f
        positions.append((try? Coordinate(latitude: lat, longitude: lon)) ?? previous.1)
      }
    }
    return Trip(mode: .walking, start: first.0, positions: positions, plannedStops: [])
  }

  /// A tasks file: `[{"title": "Buy milk", "places": [{"name": "Alepa",
  /// "lat": 60.17, "lon": 24.94, "radius": 100}, …]}, …]` — tasks with
  /// several places, as the product has them (one fire per task and visit).
  public static func tasks(_ path: String, defaultRadius: Double = 150) throws -> PlaceSet {
    guard let data = FileManager.default.contents(atPath: path) else { throw ScenarioError(source: path, message: "cannot read the tasks file", kind: "tasks file") }
    struct Task: Decodable {
      struct Spot: Decodable {
        let name: String?
        let lat: Double
        let lon: Double
        let radius: Double?
      }
      let title: String
      let places: [Spot]
    }
    let tasks: [Task]
    do {
      tasks = try JSONDecoder().decodeOutside([Task].self, from: data)
    } catch {
      throw ScenarioError(source: path, message: "expected [{\"title\", \"places\": [{\"lat\", \"lon\", \"radius\"}]}]: \(error)", kind: "tasks file")
    }
    var places: [PlaceSet.Place] = []
    var taskOf: [Int] = []
    var names: [Int: String] = [:]
    for (index, task) in tasks.enumerated() {
      guard !task.places.isEmpty else { throw ScenarioError(source: path, message: "task \(index + 1) ('\(task.title)') has no places", kind: "tasks file") }
      names[index] = task.title
      for spot in task.places {
        let radius = spot.radius ?? defaultRadius
        guard (25...10_000).contains(radius) else {
          throw ScenarioError(source: path, message: "task \(index + 1) ('\(task.title)'): radius \(radius) m is outside 25...10000", kind: "tasks file")
        }
        let center: Coordinate
        do { center = try Coordinate(latitude: spot.lat, longitude: spot.lon) } catch {
          throw ScenarioError(source: path, message: "task \(index + 1) ('\(task.title)'): \(error)", kind: "tasks file")
        }
        places.append(PlaceSet.Place(id: places.count, name: spot.name ?? task.title, center: center, radius: radius, reachable: true))
        taskOf.append(index)
      }
    }
    return PlaceSet(places: places, taskOf: taskOf, taskNames: names)
  }

  /// Places to watch: a GeoJSON file of named points (each `defaultRadius`)
  /// or a CSV `id,lat,lon,radius_m`.
  public static func places(_ path: String, defaultRadius: Double = 150) throws -> [PlaceSet.Place] {
    if path.hasSuffix(".csv") {
      let table = try CSVTable.read(path, columns: ["id", "lat", "lon", "radius_m"])
      return try (0..<table.count).map { index in
        PlaceSet.Place(
          id: index, name: "place \(Int(table[index, 0]))", center: try Coordinate(latitude: table[index, 1], longitude: table[index, 2]),
          radius: table[index, 3], reachable: true)
      }
    }
    return try PlaceSet.pointsOfInterest(geojson: path).enumerated().map { index, entry in
      PlaceSet.Place(id: index, name: entry.0, center: entry.1, radius: defaultRadius, reachable: true)
    }
  }
}

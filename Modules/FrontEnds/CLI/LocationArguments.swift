import ArgumentParsing
import Domain
import Engine

/// Pairs `--at` with the `--radius` after it: `--at A --radius 150 --at B`
/// gives A 150 m and B the default radius.
enum LocationArguments {
  static func specs(_ arguments: ParsedArguments) throws -> [LocationSpec] {
    var specs: [LocationSpec] = []
    for (name, value) in arguments.options {
      guard let value else { continue }
      switch name {
      case "at", "place":
        specs.append(LocationSpec(target: try LocationSpec.Target(parsing: value)))
      case "radius":
        guard !specs.isEmpty else {
          throw UsageError("--radius \(value) comes before any --at; put it after the --at it applies to", commandPath: arguments.commandPath)
        }
        guard specs[specs.count - 1].radius == nil else {
          throw UsageError("two --radius values for one --at (\(value)); give each --at its own", commandPath: arguments.commandPath)
        }
        specs[specs.count - 1].radius = try meters(value)
      default: continue
      }
    }
    return specs
  }

  /// A point as people give it: `LAT,LON`, or a saved place's name or id
  /// (its position).
  static func point(_ text: String, _ context: CommandContext) throws -> Coordinate {
    if Coordinate.looksLikeCoordinate(text) { return try Coordinate(parsing: text) }
    let place: Place
    do {
      place = try context.engine(part: true).places.get(text)
    } catch DomainError.notFound(let kind, let reference, let nearest) {
      // Not saved: a name or address anywhere in the map data will do.
      if let found = try context.suggestions().resolve(text) { return found.coordinate }
      throw DomainError.notFound(kind: kind, reference: reference, nearest: try nearest ?? context.suggestions().nearestName(to: text))
    }
    guard let coordinate = place.coordinate else {
      throw DomainError.invalidValue(field: "place", value: place.name, allowed: "a place with a position (this one has none yet)")
    }
    return coordinate
  }

  /// `--at NAME` for a place not saved yet: the one place the map data
  /// means by that name or address is saved and used.
  static func resolvingMapPlaces(_ specs: [LocationSpec], _ context: CommandContext) throws -> [LocationSpec] {
    var resolved: [LocationSpec] = []
    for spec in specs {
      guard case .place(let name) = spec.target else {
        resolved.append(spec)
        continue
      }
      do {
        // By its id from here on: the name is resolved once.
        let place = try context.engine(part: true).places.get(name)
        resolved.append(LocationSpec(target: .place(place.id.rawValue), radius: spec.radius))
      } catch DomainError.notFound(let kind, let reference, let nearest) {
        guard let found = try context.suggestions().resolve(name), let id = try context.suggestions().save([found]).first else {
          throw DomainError.notFound(kind: kind, reference: reference, nearest: try nearest ?? context.suggestions().nearestName(to: name))
        }
        resolved.append(LocationSpec(target: .place(id.rawValue), radius: spec.radius))
      }
    }
    return resolved
  }

  static func meters(_ text: String) throws -> Double {
    var trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.hasSuffix("km"), let km = Double(trimmed.dropLast(2)) { return km * 1000 }
    if trimmed.hasSuffix("m") { trimmed.removeLast() }
    guard let value = Double(trimmed), value.isFinite else {
      throw DomainError.invalidValue(field: "radius", value: text, allowed: "metres, e.g. 150, 150m or 1.5km")
    }
    return value
  }
}

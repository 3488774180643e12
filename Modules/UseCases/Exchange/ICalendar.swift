import Domain
import Foundation

/// Location reminders as CalDAV clients and Apple Reminders (non-iCloud)
/// write them: each task a VTODO with RFC 5545 `GEO`, each of its places a
/// VALARM with `X-APPLE-PROXIMITY:ARRIVE` and `X-APPLE-STRUCTURED-LOCATION`
/// (a geo URI with `X-APPLE-RADIUS` and `X-TITLE`).
public enum ICalendar {
  /// One location of an exported task.
  public struct Location: Equatable, Sendable {
    public let coordinate: Coordinate
    public let radius: Double?
    public let title: String?

    public init(coordinate: Coordinate, radius: Double?, title: String?) {
      self.coordinate = coordinate
      self.radius = radius
      self.title = title
    }
  }

  /// A to-do read from a file.
  public struct Todo: Equatable, Sendable {
    public var uid: String
    public var title: String
    public var notes: String
    public var completed: Date?
    public var locations: [Location]
  }

  public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
    public let line: Int
    public let reason: String
    public var description: String { line > 0 ? "line \(line): \(reason)" : reason }
  }

  public static let maxBytes = 16 << 20

  /// A VCALENDAR with one VTODO per task; `locations` gives each task's places.
  public static func encode(_ tasks: [(task: ReminderTask, locations: [Location])], now: Date) -> String {
    var out = ""
    func line(_ text: String) { out += ICalendarText.fold(text) }
    line("BEGIN:VCALENDAR")
    line("VERSION:2.0")
    line("PRODID:-//WhileHere//whilehere 0.1//EN")
    for (task, locations) in tasks {
      line("BEGIN:VTODO")
      line("UID:\(task.id.rawValue)@whilehere")
      line("DTSTAMP:\(ICalendarStamp.string(now))")
      line("CREATED:\(ICalendarStamp.string(task.createdAt))")
      line("SUMMARY:\(ICalendarText.escape(task.title))")
      if !task.notes.isEmpty { line("DESCRIPTION:\(ICalendarText.escape(task.notes))") }
      if case .completed(let at) = task.state {
        line("STATUS:COMPLETED")
        line("COMPLETED:\(ICalendarStamp.string(at))")
      } else {
        line("STATUS:NEEDS-ACTION")
      }
      if let first = locations.first { line("GEO:\(first.coordinate.latitude);\(first.coordinate.longitude)") }
      for (index, location) in locations.enumerated() {
        let uid = "\(task.id.rawValue)-\(index + 1)@whilehere"
        line("BEGIN:VALARM")
        line("UID:\(uid)")
        line("X-WR-ALARMUID:\(uid)")
        line("ACTION:DISPLAY")
        line("DESCRIPTION:\(ICalendarText.escape(task.title))")
        line("TRIGGER;VALUE=DATE-TIME:19760401T005545Z")
        line("X-APPLE-PROXIMITY:ARRIVE")
        var parameters = "VALUE=URI"
        if let radius = location.radius { parameters += ";X-APPLE-RADIUS=\(Int(radius.rounded()))" }
        parameters += ";X-APPLE-REFERENCEFRAME=1"
        if let title = location.title { parameters += ";X-TITLE=\(ICalendarText.parameter(title))" }
        line("X-APPLE-STRUCTURED-LOCATION;\(parameters):geo:\(location.coordinate.latitude),\(location.coordinate.longitude)")
        line("END:VALARM")
      }
      line("END:VTODO")
    }
    line("END:VCALENDAR")
    return out
  }

  /// Every VTODO, leniently: unknown properties are ignored, older iOS's
  /// escaped or raw commas in geo URIs are accepted; structure errors name the line.
  public static func decode(_ text: String) throws(Failure) -> [Todo] {
    guard text.utf8.count <= maxBytes else { throw Failure(line: 0, reason: "the file is larger than \(maxBytes >> 20) MiB") }
    let lines = ICalendarText.unfold(text)
    var todos: [Todo] = []
    var stack: [String] = []
    var todo: Todo?
    var geo: Coordinate?
    var alarm: (proximity: Bool, location: Location?)?
    for (offset, raw) in lines.enumerated() where !raw.isEmpty {
      let number = offset + 1
      guard let property = Property(raw) else { throw Failure(line: number, reason: "not a property line") }
      switch (property.name, property.value.uppercased()) {
      case ("BEGIN", let component):
        guard stack.count < 8 else { throw Failure(line: number, reason: "components nested too deep") }
        stack.append(component)
        if component == "VTODO" {
          todo = Todo(uid: "", title: "", notes: "", completed: nil, locations: [])
          geo = nil
        }
        if component == "VALARM" { alarm = (false, nil) }
      case ("END", let component):
        guard stack.last == component else { throw Failure(line: number, reason: "END:\(component) does not close BEGIN:\(stack.last ?? "nothing")") }
        stack.removeLast()
        if component == "VALARM", let finished = alarm {
          if finished.proximity, let location = finished.location { todo?.locations.append(location) }
          alarm = nil
        }
        if component == "VTODO", var finished = todo {
          if finished.locations.isEmpty, let geo { finished.locations = [Location(coordinate: geo, radius: nil, title: nil)] }
          todos.append(finished)
          todo = nil
        }
      default:
        guard todo != nil else { continue }
        if alarm != nil {
          switch property.name {
          case "X-APPLE-PROXIMITY": alarm?.proximity = property.value.uppercased() == "ARRIVE"
          case "X-APPLE-STRUCTURED-LOCATION":
            guard let coordinate = geoURI(property.value) else { throw Failure(line: number, reason: "X-APPLE-STRUCTURED-LOCATION is not a geo: URI with a valid coordinate") }
            let radius = property.parameters["X-APPLE-RADIUS"].flatMap(Double.init).flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            alarm?.location = Location(coordinate: coordinate, radius: radius, title: property.parameters["X-TITLE"])
          default: break
          }
          continue
        }
        switch property.name {
        case "UID": todo?.uid = property.value
        case "SUMMARY": todo?.title = ICalendarText.unescape(property.value)
        case "DESCRIPTION": todo?.notes = ICalendarText.unescape(property.value)
        case "COMPLETED": todo?.completed = ICalendarStamp.date(property.value) ?? Date(timeIntervalSince1970: 0)
        case "STATUS" where property.value.uppercased() == "COMPLETED":
          if todo?.completed == nil { todo?.completed = Date(timeIntervalSince1970: 0) }
        case "GEO":
          let parts = property.value.split(separator: ";")
          guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
            let coordinate = try? Coordinate(latitude: latitude, longitude: longitude)
          else { throw Failure(line: number, reason: "GEO must be LATITUDE;LONGITUDE") }
          geo = coordinate
        default: break
        }
      }
    }
    guard stack.isEmpty else { throw Failure(line: lines.count, reason: "the file ends inside \(stack.last!)") }
    return todos
  }

  /// `geo:60.1699,24.9384` (the comma sometimes escaped, sometimes with `;u=…`).
  static func geoURI(_ value: String) -> Coordinate? {
    guard value.lowercased().hasPrefix("geo:") else { return nil }
    // `geo:` with nothing after it has no parts at all (found by FuzzICalendar).
    let body = value.dropFirst(4).replacingOccurrences(of: "\\,", with: ",").split(separator: ";").first ?? ""
    let parts = body.split(separator: ",")
    guard parts.count >= 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
    return try? Coordinate(latitude: latitude, longitude: longitude)
  }

  /// `NAME;PARAM=VALUE;PARAM="QUOTED":VALUE`.
  struct Property {
    let name: String
    let parameters: [String: String]
    let value: String

    /// Read by Unicode scalars, as RFC 5545 defines the syntax: a colon or
    /// semicolon followed by a combining mark is one Swift Character, and
    /// looking for characters missed the colon of `SUMMARY:` + U+033C.
    init?(_ line: String) {
      let scalars = Array(line.unicodeScalars)
      var inQuotes = false
      var colon: Int?
      for (index, scalar) in scalars.enumerated() {
        if scalar == "\"" { inQuotes.toggle() }
        if scalar == ":", !inQuotes {
          colon = index
          break
        }
      }
      guard let colon else { return nil }
      var text = String.UnicodeScalarView()
      text.append(contentsOf: scalars[(colon + 1)...])
      value = String(text)
      var pieces: [String.UnicodeScalarView] = []
      var current = String.UnicodeScalarView()
      inQuotes = false
      for scalar in scalars[..<colon] {
        if scalar == "\"" {
          inQuotes.toggle()
          continue
        }
        if scalar == ";", !inQuotes {
          pieces.append(current)
          current = String.UnicodeScalarView()
        } else {
          current.append(scalar)
        }
      }
      pieces.append(current)
      name = String(pieces[0]).uppercased()
      guard !name.isEmpty else { return nil }
      var parameters: [String: String] = [:]
      for piece in pieces.dropFirst() {
        guard let equals = piece.firstIndex(of: "=") else { continue }
        parameters[String(piece[..<equals]).uppercased()] = String(piece[piece.index(after: equals)...])
      }
      self.parameters = parameters
    }
  }
}

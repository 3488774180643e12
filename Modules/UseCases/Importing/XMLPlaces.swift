import Domain
import Foundation

/// KML placemarks (Google My Maps exports, nested folders) and GPX
/// waypoints: each point with a name becomes a row with its coordinate.
/// Lines, polygons and track points are not places and are skipped.
enum XMLPlaces {
  enum Flavour { case kml, gpx }

  static func parse(_ data: Data, file: String, name: String, flavour: Flavour) throws -> TakeoutList {
    guard String(data: data, encoding: .utf8) != nil else {
      throw ImportError(file: file, line: nil, message: "not UTF-8 text (KML and GPX exports are UTF-8); is this the right file?")
    }
    var xml = XMLReader([UInt8](data))
    var reader = Reader(file: file, flavour: flavour)
    do {
      while let event = try xml.next() {
        switch event {
        case .start(let element, let attributes): try reader.start(element, attributes: attributes, line: xml.line)
        case .end(let element): try reader.end(element, line: xml.line)
        case .text(let text): reader.text += text
        }
      }
    } catch let failure as XMLReader.Failure {
      throw ImportError(file: file, line: failure.line, message: "not well-formed XML (\(failure.message))")
    }
    if let unclosed = xml.unclosed {
      throw ImportError(file: file, line: xml.line, message: "the file ends inside <\(unclosed)>: it was cut short")
    }
    guard reader.sawRoot else {
      throw ImportError(file: file, line: nil, message: flavour == .kml ? "not a KML file (no <kml> element)" : "not a GPX file (no <gpx> element)")
    }
    var list = TakeoutList(name: reader.documentName ?? name, description: nil, rows: reader.rows)
    list.skipped = reader.skipped
    return list
  }

  /// What the elements mean: placemarks and waypoints as they open and close.
  struct Reader {
    let file: String
    let flavour: Flavour
    var rows: [TakeoutList.Row] = []
    var skipped: [String] = []
    var sawRoot = false
    var documentName: String?
    private var path: [String] = []
    var text = ""
    // The placemark or waypoint being read.
    private var open: (line: Int, name: String, note: String, coordinate: Coordinate?, point: Bool)?

    init(file: String, flavour: Flavour) {
      self.file = file
      self.flavour = flavour
    }

    mutating func start(_ element: String, attributes: [String: String], line: Int) throws(ImportError) {
      let local = element.split(separator: ":").last.map(String.init) ?? element
      path.append(local)
      text = ""
      guard path.count < 64 else { throw ImportError(file: file, line: line, message: "elements nested deeper than 64") }
      switch (flavour, local) {
      case (.kml, "kml"), (.gpx, "gpx"): sawRoot = true
      case (.kml, "Placemark"): open = (line, "", "", nil, false)
      case (.kml, "Point"): open?.point = true
      case (.gpx, "wpt"):
        guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
          let coordinate = try? Coordinate(latitude: lat, longitude: lon)
        else { throw ImportError(file: file, line: line, message: "a waypoint needs lat and lon attributes within range") }
        open = (line, "", "", coordinate, true)
      default: break
      }
    }

    mutating func end(_ element: String, line: Int) throws(ImportError) {
      let local = path.popLast() ?? element
      let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
      switch (flavour, local) {
      case (_, "name") where open != nil: open?.name = value
      case (.kml, "name") where path.last == "Document": documentName = value.isEmpty ? nil : value
      case (.kml, "description") where open != nil, (.gpx, "desc") where open != nil, (.gpx, "cmt") where open != nil:
        if open?.note.isEmpty == true { open?.note = value }
      case (.kml, "coordinates") where open?.point == true:
        // lon,lat[,alt]
        let parts = value.split(whereSeparator: { $0 == "," || $0.isWhitespace })
        guard parts.count >= 2, let lon = Double(parts[0]), let lat = Double(parts[1]), let coordinate = try? Coordinate(latitude: lat, longitude: lon) else {
          throw ImportError(file: file, line: line, message: "coordinates must be longitude,latitude within range, not '\(value.prefix(40))'")
        }
        open?.coordinate = coordinate
      case (.kml, "Placemark"), (.gpx, "wpt"):
        if let place = open, place.point, let coordinate = place.coordinate, !place.name.isEmpty {
          rows.append(
            TakeoutList.Row(number: rows.count + 1, line: place.line, title: place.name, note: place.note, url: "", coordinate: coordinate))
        } else if let place = open {
          skipped.append("line \(place.line): " + (place.point ? "no name" : "not a point"))
        }
        open = nil
      default: break
      }
      text = ""
    }
  }
}

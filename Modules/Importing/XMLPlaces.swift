import Domain
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// KML placemarks (Google My Maps exports, nested folders) and GPX
/// waypoints: each point with a name becomes a row with its coordinate.
/// Lines, polygons and track points are not places and are skipped.
enum XMLPlaces {
  enum Flavour { case kml, gpx }

  /// Where a `<?` other than the XML declaration at the start begins.
  /// Foundation's XMLParser dereferences a null pointer for a processing
  /// instruction without data (`<?xml?>`, found by FuzzImport).
  static func processingInstruction(in data: Data) -> Int? {
    let bytes = [UInt8](data)
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
    let declaration = Array("<?xml".utf8)
    var index = 0
    while index + 1 < bytes.count {
      if bytes[index] == 0x3C, bytes[index + 1] == 0x3F {
        let isDeclaration =
          index == start && bytes[index...].starts(with: declaration) && index + 5 < bytes.count
          && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index + 5])
        if !isDeclaration { return index }
      }
      index += 1
    }
    return nil
  }

  static func parse(_ data: Data, file: String, name: String, flavour: Flavour) throws -> TakeoutList {
    // Foundation's XMLParser crashes on an element name that is not UTF-8
    // (found by FuzzImport); KML and GPX exports are UTF-8.
    guard String(data: data, encoding: .utf8) != nil else {
      throw ImportError(file: file, line: nil, message: "not UTF-8 text (KML and GPX exports are UTF-8); is this the right file?")
    }
    if let offset = processingInstruction(in: data) {
      throw ImportError(
        file: file, line: nil,
        message: "contains a processing instruction (<?…?>) at byte \(offset); KML and GPX exports have none beyond the XML declaration")
    }
    let reader = Reader(file: file, flavour: flavour)
    let parser = XMLParser(data: data)
    parser.shouldResolveExternalEntities = false
    parser.delegate = reader
    guard parser.parse(), reader.failure == nil else {
      if let failure = reader.failure { throw failure }
      // The data ended with elements open (XMLParser.ErrorCode.prematureDocumentEndError).
      if let unclosed = reader.unclosed, (reader.xmlError as NSError?)?.code == 5 {
        throw ImportError(file: file, line: parser.lineNumber, message: "the file ends inside <\(unclosed)>: it was cut short")
      }
      let error = reader.xmlError ?? parser.parserError
      throw ImportError(file: file, line: reader.xmlErrorLine ?? parser.lineNumber, message: "not well-formed XML (\(error.map { "\($0.localizedDescription)" } ?? "parse error"))")
    }
    if let unclosed = reader.unclosed {
      throw ImportError(file: file, line: parser.lineNumber, message: "the file ends inside <\(unclosed)>: it was cut short")
    }
    guard reader.sawRoot else {
      throw ImportError(file: file, line: nil, message: flavour == .kml ? "not a KML file (no <kml> element)" : "not a GPX file (no <gpx> element)")
    }
    var list = TakeoutList(name: reader.documentName ?? name, description: nil, rows: reader.rows)
    list.skipped = reader.skipped
    return list
  }

  final class Reader: NSObject, XMLParserDelegate {
    let file: String
    let flavour: Flavour
    var rows: [TakeoutList.Row] = []
    var skipped: [String] = []
    var failure: ImportError?
    /// The first XML error and its line.
    var xmlError: (any Error)?
    var xmlErrorLine: Int?
    var sawRoot = false
    var documentName: String?
    private var path: [String] = []
    var unclosed: String? { path.last }
    private var text = ""
    // The placemark or waypoint being read.
    private var open: (line: Int, name: String, note: String, coordinate: Coordinate?, point: Bool)?

    init(file: String, flavour: Flavour) {
      self.file = file
      self.flavour = flavour
    }

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
      let local = element.split(separator: ":").last.map(String.init) ?? element
      path.append(local)
      text = ""
      guard path.count < 64 else { return fail(parser, "elements nested deeper than 64") }
      switch (flavour, local) {
      case (.kml, "kml"), (.gpx, "gpx"): sawRoot = true
      case (.kml, "Placemark"): open = (parser.lineNumber, "", "", nil, false)
      case (.kml, "Point"): open?.point = true
      case (.gpx, "wpt"):
        guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
          let coordinate = try? Coordinate(latitude: lat, longitude: lon)
        else { return fail(parser, "a waypoint needs lat and lon attributes within range") }
        open = (parser.lineNumber, "", "", coordinate, true)
      default: break
      }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { text += String(decoding: CDATABlock, as: UTF8.self) }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
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
          return fail(parser, "coordinates must be longitude,latitude within range, not '\(value.prefix(40))'")
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

    /// Linux's XMLParser goes on after an error and reports each later one
    /// too, and Foundation leaks an error object per report (a ten-minute
    /// fuzz run grew to 2 GiB): the first error decides, so parsing stops there.
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
      if xmlError == nil {
        xmlError = parseError
        xmlErrorLine = parser.lineNumber
      }
      parser.abortParsing()
    }

    private func fail(_ parser: XMLParser, _ message: String) {
      guard failure == nil else { return }
      failure = ImportError(file: file, line: parser.lineNumber, message: message)
      parser.abortParsing()
    }
  }
}

import Domain
import Foundation

/// A Google Takeout saved list (`Saved/<list>.csv`): an optional description
/// line and a blank line, a header (`Title,Note,URL`, `Title,Note,URL,Comment`
/// or `Title,Note,URL,Tags,Comment`), an optional all-empty row, then one
/// row per place. Duplicate rows are kept: they point at one place later.
public struct TakeoutList: Sendable, Equatable {
  public struct Row: Sendable, Equatable {
    /// 1-based among place rows, as truth.json counts them.
    public let number: Int
    /// The line in the file where the row starts.
    public let line: Int
    public let title: String
    public let note: String
    public let url: String
    /// Starred places carry where they are; saved-list rows do not.
    public let coordinate: Coordinate?
    public let address: String?

    public init(number: Int, line: Int, title: String, note: String, url: String, coordinate: Coordinate? = nil, address: String? = nil) {
      self.number = number
      self.line = line
      self.title = title
      self.note = note
      self.url = url
      self.coordinate = coordinate
      self.address = address
    }
  }

  public let name: String
  public let description: String?
  public let rows: [Row]
  /// Entries that are not places and were left out (a GeoJSON line or
  /// polygon, a placemark without a point or a name), by what they were.
  public var skipped: [String] = []

  /// Larger files are refused before reading: no saved list comes near it.
  public static let maxBytes = 64 << 20

  public init(name: String, description: String?, rows: [Row]) {
    self.name = name
    self.description = description
    self.rows = rows
  }

  /// By extension: a saved-list CSV, starred-places JSON, GeoJSON, KML or GPX.
  public static func read(_ path: String) throws -> TakeoutList {
    let file = (path as NSString).lastPathComponent
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
      throw ImportError(file: file, line: nil, message: "cannot read the file")
    }
    if let size = attributes[.size] as? Int, size > maxBytes {
      throw ImportError(file: file, line: nil, message: "\(size) bytes is too large for a saved list (at most \(maxBytes))")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ImportError(file: file, line: nil, message: "cannot read the file")
    }
    return try parse(data, file: file)
  }

  /// A file's bytes, read by its name's extension as `read` does (an upload, a fuzzer).
  public static func parse(_ data: Data, file: String) throws -> TakeoutList {
    if data.count > maxBytes {
      throw ImportError(file: file, line: nil, message: "\(data.count) bytes is too large for a saved list (at most \(maxBytes))")
    }
    let name = (file as NSString).deletingPathExtension
    switch (file as NSString).pathExtension.lowercased() {
    case "json": return try SavedPlaces.parse(data, file: file, name: name)
    case "geojson": return try GeoJSONPlaces.parse(data, file: file, name: name)
    case "kml": return try XMLPlaces.parse(data, file: file, name: name, flavour: .kml)
    case "gpx": return try XMLPlaces.parse(data, file: file, name: name, flavour: .gpx)
    case "kmz": throw ImportError(file: file, line: nil, message: "a KMZ is a zipped KML: unzip it (unzip FILE.kmz) and import doc.kml")
    default: return try parse(data, file: file, name: name)
    }
  }

  public static func parse(_ data: Data, file: String, name: String) throws -> TakeoutList {
    guard let text = String(data: data, encoding: .utf8) else {
      throw ImportError(file: file, line: nil, message: "not UTF-8 text (Takeout writes UTF-8); is this the right file?")
    }
    if text.unicodeScalars.contains(where: { $0.value == 0 }) {
      throw ImportError(file: file, line: nil, message: "contains binary data, not a CSV list")
    }
    var records = try CSVReader.records(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text, file: file)
    var description: String?
    guard let headerIndex = records.firstIndex(where: { $0.fields.first?.trimmingCharacters(in: .whitespaces) == "Title" }) else {
      throw ImportError(file: file, line: records.first?.line ?? 1, message: "no 'Title,Note,URL…' header: not a Takeout saved list")
    }
    let before = records[..<headerIndex].filter { !$0.fields.allSatisfy(\.isEmpty) }
    if before.count > 1 {
      throw ImportError(file: file, line: before[1].line, message: "unexpected text before the header")
    }
    description = before.first?.fields.joined(separator: ",")
    let header = records[headerIndex].fields.map { $0.trimmingCharacters(in: .whitespaces) }
    guard header.starts(with: ["Title", "Note", "URL"]) else {
      throw ImportError(file: file, line: records[headerIndex].line, message: "header is '\(header.joined(separator: ","))'; expected Title,Note,URL[,Tags][,Comment]")
    }
    records.removeFirst(headerIndex + 1)
    var rows: [Row] = []
    for record in records where !record.fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
      guard record.fields.count <= header.count else {
        throw ImportError(file: file, line: record.line, message: "\(record.fields.count) fields, the header has \(header.count)")
      }
      let title = record.fields[0].trimmingCharacters(in: .whitespacesAndNewlines)
      guard !title.isEmpty else { throw ImportError(file: file, line: record.line, message: "a row without a title") }
      rows.append(
        Row(
          number: rows.count + 1, line: record.line, title: title, note: record.fields.count > 1 ? record.fields[1] : "",
          url: record.fields.count > 2 ? record.fields[2] : ""))
    }
    return TakeoutList(name: name, description: description, rows: rows)
  }
}

import Domain
import Exchange
import Foundation
import FuzzBounds
import Importing

/// A GeoJSON list import: places or an ImportError, never a crash. What
/// imports must also export and import back the same: each place is made
/// as `import` makes it (its name on one line, at most the name limit), written
/// as `export geojson` writes it, and read again with the same name, position,
/// note and address.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzGeoJSON", count) }
  guard let list = try? TakeoutList.parse(Data(bytes: bytes, count: count), file: "fuzz.geojson") else { return 0 }
  let created = Date(timeIntervalSince1970: 1_780_000_000)
  var places: [Place] = []
  for row in list.rows {
    let line = CleanText.line(row.title)
    let name = line.count <= CleanText.nameLimit ? line : String(line.prefix(CleanText.nameLimit - 1)) + "…"
    guard !name.isEmpty, let coordinate = row.coordinate else { continue }
    let personal = PersonalPlaceData(name: name, coordinate: coordinate, address: row.address.map(CleanText.line), note: CleanText.paragraph(row.note))
    places.append(Place(id: PlaceID(String(format: "p%06d", places.count)), personal: personal, createdAt: created))
  }
  let exported = GeoJSONExport.encode(places: places, lists: [], memberships: [])
  let again: TakeoutList
  do { again = try TakeoutList.parse(exported.data, file: "export.geojson") } catch {
    fatalError("an export does not import: \(error)\n\(String(decoding: exported.data, as: UTF8.self))")
  }
  precondition(again.rows.count == places.count, "\(places.count) places exported, \(again.rows.count) imported")
  for (row, place) in zip(again.rows, places) {
    precondition(row.title == place.name, "name \(place.name.debugDescription) came back as \(row.title.debugDescription)")
    precondition(row.coordinate == place.coordinate, "position \(String(describing: place.coordinate)) came back as \(String(describing: row.coordinate))")
    precondition(row.note == place.personal.note, "note \(place.personal.note.debugDescription) came back as \(row.note.debugDescription)")
    precondition(row.address == place.address, "address \(String(describing: place.address)) came back as \(String(describing: row.address))")
  }
  return 0
}

import Foundation
import FuzzBounds
import Importing

/// Saved lists as people export them: the first byte picks the format
/// (Takeout CSV, Saved Places JSON, GeoJSON, KML, GPX), the rest is the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzImport", count) }
  guard count > 0 else { return 0 }
  let names = ["list.csv", "Saved Places.json", "places.geojson", "doc.kml", "track.gpx"]
  let file = names[Int(bytes[0]) % names.count]
  _ = try? TakeoutList.parse(Data(bytes: bytes + 1, count: count - 1), file: file)
  return 0
}

import Foundation
import FuzzBounds
import OSMPlaces

/// A GeoJSON places file given as `osm-geojson:PATH`: places or a
/// ProviderError, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaces(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzPlaces", count) }
  _ = try? GeoJSONPlaceProvider.parse(Data(bytes: bytes, count: count), source: "fuzz.geojson")
  return 0
}

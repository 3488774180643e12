import Foundation
import FuzzBounds
import Overpass

/// An Overpass API answer, from a server the person configured but does not
/// control: places or a ProviderError, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOverpass(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzOverpass", count) }
  _ = try? OverpassResponse.places(Data(bytes: bytes, count: count), provider: "overpass:fuzz")
  return 0
}

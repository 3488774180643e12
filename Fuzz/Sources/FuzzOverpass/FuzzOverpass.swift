import Foundation
import Overpass

/// An Overpass API answer, from a server the person configured but does not
/// control: places or a ProviderError, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOverpass(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  _ = try? OverpassResponse.places(Data(bytes: bytes, count: count), provider: "overpass:fuzz")
  return 0
}

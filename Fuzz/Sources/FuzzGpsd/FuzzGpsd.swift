import Foundation
import FuzzBounds
import Gpsd

/// One line from gpsd: a fix or nothing, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGpsd(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzGpsd", count) }
  _ = GpsdReport.fix(from: Data(bytes: bytes, count: count), receivedAt: Date(timeIntervalSince1970: 1_780_000_000))
  return 0
}

import Foundation
import FuzzBounds
import Simulation

/// A scenario file for the simulator: a scenario or an error naming the
/// problem, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzScenario", count) }
  _ = try? Scenario.decode(Data(bytes: bytes, count: count), source: "fuzz")
  return 0
}

import Foundation
import FuzzBounds
import Simulation

/// A simulator world file (`--world FILE`): a world or a ScenarioError
/// naming the key, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWorld(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzWorld", count) }
  _ = try? WorldConfig.parse(Data(bytes: bytes, count: count), source: "fuzz-world.json")
  return 0
}

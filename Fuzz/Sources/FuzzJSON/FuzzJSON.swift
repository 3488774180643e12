import Domain
import Foundation
import FuzzBounds

/// The project's JSON parser: never a crash or a hang, and a value that
/// parses encodes and parses back to itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzJSON", count) }
  let data = Data(bytes: bytes, count: count)
  guard let value = try? JSONParser.parse(data) else { return 0 }
  guard let encoded = try? JSONEncoder().encode(value) else { fatalError("a parsed value does not encode: \(value)") }
  guard let again = try? JSONParser.parse(encoded) else { fatalError("the encoding of a parsed value does not parse: \(String(decoding: encoded, as: UTF8.self))") }
  if again != value { fatalError("round trip changed the value: \(value) → \(again)") }
  return 0
}


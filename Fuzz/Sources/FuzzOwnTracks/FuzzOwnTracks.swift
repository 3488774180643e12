import Foundation
import FuzzBounds
import OwnTracks

/// Every OwnTracks message a phone or a broker could hand the daemon: a
/// report or an error naming the field, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOwnTracks(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzOwnTracks", count) }
  _ = try? OwnTracksCodec.decode(Data(bytes: bytes, count: count), now: Date(timeIntervalSince1970: 1_780_000_000))
  return 0
}

import Composition
import Foundation
import FuzzBounds

/// A config file as whilehere and whilehered read it (every key, people,
/// providers, arrival settings): settings or a ConfigError naming the key,
/// never a crash. The bytes go to a file because the loader reads a path.
let path = NSTemporaryDirectory() + "whilehere-fuzz-config-\(getpid()).json"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzConfig", count) }
  FileManager.default.createFile(atPath: path, contents: Data(bytes: bytes, count: count))
  for program in [Profile.cli, .headless] {
    _ = try? ConfigLoader.load(LaunchOptions(program: program, configPath: path, environment: ["HOME": "/nonexistent"]))
  }
  return 0
}

import Foundation

/// Executables SwiftPM built beside the test binary (`whilehered`,
/// `store-torture`, …), for tests that run the real program.
public enum BuiltProduct {
  /// The path of `name` in the test binary's build directory (searching a
  /// few levels up, as bundles nest), or `.build/debug/NAME` if not found.
  public static func path(_ name: String) -> String {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent(name).path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    return ".build/debug/" + name
  }
}

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

extension BuiltProduct {
  /// Runs a program to completion: its exit status and its output (stdout
  /// and stderr together). `name` is a built product, or an absolute path.
  public static func run(
    _ name: String, _ arguments: [String], environment: [String: String], directory: String? = nil
  ) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: name.hasPrefix("/") ? name : path(name))
    process.arguments = arguments
    process.environment = environment
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }
}

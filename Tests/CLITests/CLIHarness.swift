import CLI
import Foundation

/// Runs the CLI in-process against a store in a fresh temporary directory.
final class CLIHarness {
  let home = NSTemporaryDirectory() + "whilehere-cli-" + UUID().uuidString
  var storeDirectory: String { home + "/data/whilehere" }
  var environment: [String: String] { ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"] }

  struct Result {
    let code: Int32
    let stdout: String
    let stderr: String
  }

  @discardableResult
  func run(_ arguments: String..., terminal: Bool = false, extraEnvironment: [String: String] = [:], input: [String]? = nil) -> Result {
    run(arguments, terminal: terminal, extraEnvironment: extraEnvironment, input: input)
  }

  /// `input`: the lines a person types at questions, in order (then end of input).
  func run(_ arguments: [String], terminal: Bool = false, extraEnvironment: [String: String] = [:], input: [String]? = nil) -> Result {
    let output = BufferedOutput(isTerminal: terminal)
    var reader: (@Sendable () -> String?)?
    if let input {
      let script = ScriptedInput(input)
      reader = { script.next() }
    }
    let code = CLI.run(arguments: arguments, environment: environment.merging(extraEnvironment) { $1 }, output: output, input: reader)
    return Result(code: code, stdout: output.stdout, stderr: output.stderr)
  }

  func json(_ arguments: String...) throws -> Any {
    let result = run(arguments + ["--json"])
    return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
  }

  /// Every store file except the lock, by name, for byte-for-byte comparisons.
  func storeBytes() -> [String: Data] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: storeDirectory)) ?? []
    var files: [String: Data] = [:]
    for name in names where name != "LOCK" {
      files[name] = FileManager.default.contents(atPath: storeDirectory + "/" + name)
    }
    return files
  }

  deinit { try? FileManager.default.removeItem(atPath: home) }
}

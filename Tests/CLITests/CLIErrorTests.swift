import CLI
import Foundation
import Testing

/// Bad input: one clear message naming the value, a distinct exit code, and
/// the store byte-for-byte unchanged.
@Suite struct CLIErrorTests {
  static let cases: [(arguments: [String], code: Int32, message: String)] = [
    (["task", "add", "X", "--at", "95,24"], ExitCode.invalidInput, "latitude 95.0 is outside -90...90"),
    (["task", "add", "X", "--at", "60,24", "--radius", "10"], ExitCode.invalidInput, "radius 10 m is out of range (allowed 25...10000 m)"),
    (["task", "add", "  ", "--at", "60,24"], ExitCode.invalidInput, "title is empty"),
    (["task", "add", "X"], ExitCode.usage, "needs at least one --at"),
    (["task", "add", "X", "--radius", "50", "--at", "60,24"], ExitCode.usage, "comes before any --at"),
    (["task", "add", "X", "--at", "Nowhere Cafe"], ExitCode.notFound, "no place matches 'Nowhere Cafe'"),
    (["task", "done", "ghost"], ExitCode.notFound, "no task matches 'ghost'"),
    (["task", "radius", "Milk", "1", "20000"], ExitCode.invalidInput, "out of range"),
    (["task", "radius", "Milk", "7", "100"], ExitCode.invalidInput, "invalid location number '7'"),
    (["task", "later", "Milk", "--for", "soon"], ExitCode.invalidInput, "invalid duration 'soon'"),
    (["task", "reopen", "Milk"], ExitCode.invalidInput, "not done"),
    (["list", "create", "groceries"], ExitCode.invalidInput, "a list named 'Groceries' already exists"),
    (["list", "add", "Groceries", "Alepa"], ExitCode.invalidInput, "'Alepa' is already in list 'Groceries'"),
    (["place", "delete", "Alepa"], ExitCode.invalidInput, "is used by task(s) 'Milk'"),
    (["task", "add", "X", "--at", "60,24", "--radiu", "50"], ExitCode.usage, "did you mean '--radius'?"),
    (["tsak", "list"], ExitCode.usage, "did you mean 'task'?"),
    (["check"], ExitCode.usage, "--at LAT,LON"),
    (["task", "list", "--store", "mongodb:/x"], ExitCode.config, "unknown store provider 'mongodb'; known: file, memory, nats, remote, sqlite"),
  ]

  @Test(arguments: cases)
  func badInputIsNamedAndChangesNothing(_ arguments: [String], _ code: Int32, _ message: String) {
    let cli = CLIHarness()
    #expect(cli.run("list", "create", "Groceries").code == 0)
    #expect(cli.run("place", "add", "Alepa", "--at", "60.17,24.94", "--list", "Groceries").code == 0)
    #expect(cli.run("task", "add", "Milk", "--at", "Alepa").code == 0)
    let before = cli.storeBytes()
    #expect(before["log-1"] != nil)
    let result = cli.run(arguments)
    #expect(result.code == code, "\(arguments): \(result.stderr)")
    #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count <= 2, "one message (plus a --help hint): \(result.stderr)")
    #expect(cli.storeBytes() == before, "\(arguments) changed the store")
  }

  /// While a daemon-style holder keeps the writer lock, reads still work
  /// and a write waits its bound, then names the holder and changes nothing.
  @Test func aHeldStoreIsReadAndAWriteNamesTheHolder() throws {
    let cli = CLIHarness()
    cli.run("task", "add", "Milk", "--at", "60,24")
    let holder = try FileOperationStoreHolder(directory: cli.storeDirectory)
    defer { holder.release() }
    let before = cli.storeBytes()
    let listing = cli.run("task", "list")
    #expect(listing.code == 0, "\(listing.stderr)")
    #expect(listing.stdout.contains("Milk"))
    let result = cli.run("task", "add", "Eggs", "--at", "60,24", extraEnvironment: ["WHILEHERE_STORE_WAIT": "0.2"])
    #expect(result.code == ExitCode.storeInUse)
    #expect(result.stderr.contains("store in use by pid \(getpid())"))
    #expect(cli.storeBytes() == before)
  }

  /// Two CLI writers at once: the second waits for the first instead of failing.
  @Test func concurrentCLIWritesAllLand() async throws {
    let cli = CLIHarness()
    cli.run("task", "list")
    let environment = cli.environment
    let codes = await withTaskGroup(of: Int32.self) { group in
      for i in 0..<8 {
        group.addTask {
          CLI.run(arguments: ["task", "add", "Task \(i)", "--at", "60,24"], environment: environment, output: BufferedOutput(isTerminal: false))
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(codes == [Int32](repeating: 0, count: 8))
    let listing = cli.run("task", "list")
    for i in 0..<8 { #expect(listing.stdout.contains("Task \(i)"), "\(listing.stdout)") }
  }

  @Test func aConfigTypoIsNamed() throws {
    let cli = CLIHarness()
    try FileManager.default.createDirectory(atPath: cli.home + "/config/whilehere", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: cli.home + "/config/whilehere/config.json", contents: Data(#"{"stroe": "memory"}"#.utf8))
    let result = cli.run("task", "list")
    #expect(result.code == ExitCode.config)
    #expect(result.stderr.contains("unknown key 'stroe' (did you mean 'store'?)"))
  }
}

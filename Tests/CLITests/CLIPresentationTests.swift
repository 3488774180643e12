import Foundation
@testable import ArgumentParsing
@testable import CLI
import Testing

@Suite struct CLIPresentationTests {
  /// Every command path in the tree, e.g. ["task", "add"].
  static let commandPaths: [[String]] = {
    var paths: [[String]] = [[]]
    func walk(_ command: CommandSpec<CommandContext>, _ path: [String]) {
      for sub in command.subcommands {
        paths.append(path + [sub.name])
        walk(sub, path + [sub.name])
      }
    }
    walk(CLI.root, [])
    return paths
  }()

  @Test(arguments: commandPaths)
  func everyCommandHasHelp(_ path: [String]) {
    let cli = CLIHarness()
    let result = cli.run(path + ["--help"])
    #expect(result.code == 0)
    #expect(result.stdout.hasPrefix("usage: whilehere" + path.map { " " + $0 }.joined()), "\(result.stdout)")
    #expect(cli.storeBytes().isEmpty, "--help must not create a store")
  }

  /// Coordinates print with six decimals, rounded as printf rounds them.
  @Test func coordinatesPrintAsPrintfWritesThem() {
    for (lat, lon) in [(60.1699, 24.9384), (-33.8688, 151.2093), (0, -0.0000004), (89.9999995, -179.9999995), (-90, 180), (1e-7, 12.3456785)] {
      #expect(Formatting.coordinate(lat, lon) == String(format: "%.6f,%.6f", lat, lon), "\(lat), \(lon)")
    }
    #expect(Formatting.coordinate(60.1699, 24.9384) == "60.169900,24.938400")
  }

  /// Six decimals are written by integers where that cannot differ from
  /// printf: random coordinates, values on and next to rounding ties, near
  /// whole degrees and signed zeros all print as printf prints them.
  @Test func coordinatesPrintAsPrintfWritesThemEverywhere() {
    var generator = SystemRandomNumberGenerator()
    var values: [Double] = [0, -0.0, 0.0000005, -0.0000005, 0.0000015, 179.9999995, -89.9999999, 1e-300, .nan, .infinity, 1e12, 999.9999995, 1000, 123_456.1234565]
    for _ in 0..<50_000 {
      values.append(Double.random(in: -180...180, using: &generator))
      // On a tie as a decimal, which binary holds a little above or below.
      let tie = (Double(Int.random(in: -180_000_000...180_000_000, using: &generator)) + 0.5) / 1e6
      values.append(contentsOf: [tie, tie.nextUp, tie.nextDown])
      values.append(Double(Int.random(in: -180...180, using: &generator)) + Double.random(in: -1e-6...1e-6, using: &generator))
    }
    var differing: [Double] = []
    for value in values
    where Formatting.coordinate(value, 0) != String(format: "%.6f,%.6f", value, 0.0)
      || Formatting.coordinate(-1.5, value) != String(format: "%.6f,%.6f", -1.5, value)
    {
      differing.append(value)
    }
    #expect(differing.isEmpty, "differ from printf: \(differing.prefix(5))")
  }

  /// What the listing writes as bytes (`appendMeters`, `appendInteger`,
  /// `Style.append`) is what the strings it replaced said.
  @Test func bytesWrittenAreTheStringsTheyReplaced() {
    let radii: [Double] = [0, 0.4, 0.5, 49.5, 50, 999.4, 999.5, 999.9999, 1000, 1049.9, 12_345.678, 1e9] + (0..<2_000).map { _ in Double.random(in: 0...5_000) }
    let differing = radii.filter { Formatting.meters($0) != ($0 >= 1000 ? String(format: "%.1f km", $0 / 1000) : "\(Int($0.rounded())) m") }
    #expect(differing.isEmpty, "metres differ: \(differing.prefix(5))")
    for number in [0, 1, 9, 10, 99, 100, 12_345, -1, -10, Int.max, Int.min] {
      var bytes: [UInt8] = []
      Formatting.appendInteger(number, to: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == String(number))
    }
    for style in [Style(enabled: true), Style(enabled: false)] {
      let wrapped: [(String, Style.Code)] = [(style.bold("Milk ü"), .bold), (style.dim("t1"), .dim), (style.green("open now"), .green), (style.yellow("x"), .yellow), (style.red(""), .red)]
      for (expected, code) in wrapped {
        let text = ["Milk ü", "t1", "open now", "x", ""][wrapped.firstIndex { $0.1 == code }!]
        var bytes: [UInt8] = []
        style.append(text, code, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
      }
    }
  }

  @Test func colourOnlyOnATerminalAndNeverWithNoColor() {
    let cli = CLIHarness()
    cli.run("task", "add", "Milk", "--at", "60,24")
    #expect(cli.run("task", "list", terminal: true).stdout.contains("\u{1B}["))
    #expect(!cli.run("task", "list", terminal: false).stdout.contains("\u{1B}["))
    #expect(!cli.run("task", "list", terminal: true, extraEnvironment: ["NO_COLOR": "1"]).stdout.contains("\u{1B}["))
    #expect(!cli.run("task", "list", "--no-color", terminal: true).stdout.contains("\u{1B}["))
  }

  @Test func doctorShowsProfileConfigProvidersAndStore() {
    let cli = CLIHarness()
    let result = cli.run("doctor")
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("profile   cli"))
    #expect(result.stdout.contains("store   file:\(cli.storeDirectory)"))
    #expect(result.stdout.contains("store     ok  file  \(cli.storeDirectory)"))
    #expect(result.stdout.contains("replica"))
  }
}

@Suite struct DoctorPermissionTests {
  @Test func doctorExplainsWhatStillWorksUnderLimitedPermissions() throws {
    let cli = CLIHarness()
    try FileManager.default.createDirectory(atPath: cli.home + "/config/whilehere", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: cli.home + "/config/whilehere/config.json",
      contents: Data(#"{"permissions": {"preciseLocation": false, "notifications": false}, "arrival": {"coverage": {"maxDestinations": 5}}}"#.utf8))
    let result = cli.run("doctor")
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("only approximate location is allowed: region monitoring is off"))
    #expect(result.stdout.contains("notifications are denied"))
    #expect(result.stdout.contains("arrival   5 destinations"))
  }
}

@Suite struct ReminderSettingsTests {
  @Test func buttonTitlesAndTheSnoozeLengthAreConfiguration() throws {
    let cli = CLIHarness()
    try FileManager.default.createDirectory(atPath: cli.home + "/config/whilehere", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: cli.home + "/config/whilehere/config.json",
      contents: Data(#"{"reminders": {"doneTitle": "Valmis", "laterTitle": "Myöhemmin", "laterDuration": 1800}}"#.utf8))
    #expect(cli.run("doctor").stdout.contains("reminders [Valmis]  [Myöhemmin] (30m)"))
    cli.run("task", "add", "Milk", "--at", "60,24")
    #expect(cli.run("task", "later", "Milk").stdout.contains("Snoozed for 30m"))
    _ = FileManager.default.createFile(
      atPath: cli.home + "/config/whilehere/config.json", contents: Data(#"{"reminders": {"laterDuraton": 60}}"#.utf8))
    let typo = cli.run("doctor")
    #expect(typo.code == 78 && typo.stderr.contains("'reminders.laterDuraton' (did you mean 'reminders.laterDuration'?)"))
  }
}

/// A long listing goes out in large writes; what arrives is every line in
/// order, as line-by-line writes would have put it.
@Suite struct StandardOutputTests {
  @Test func manyLinesArriveWholeAndInOrder() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("whilehere-out-\(UUID().uuidString)").path
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let file = try #require(FileHandle(forWritingAtPath: path))
    let output = StandardOutput(output: file, error: file)
    let lines = (0..<30_000).map { "Task \($0)  t\($0)  active — Kauppatori ü" }
    output.out("first")
    output.out(lines: lines)
    output.out(lines: [])
    output.out("last")
    try file.close()
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written == (["first"] + lines + ["last"]).map { $0 + "\n" }.joined())
  }
}

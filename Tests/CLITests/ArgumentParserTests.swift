import ArgumentParsing
import Testing

@Suite struct ArgumentParserTests {
  static let root = CommandSpec<Void>(
    "tool", "a tool",
    subcommands: [
      CommandSpec(
        "add", "add", positionals: [("TITLE", "title"), ("EXTRA", "extra")], required: 1,
        options: [.value("at", "X", repeatable: true, "at"), .value("radius", "M", repeatable: true, "r"), .flag("quiet", short: "q", "q")]
      ) { _, _ in },
      CommandSpec("group", "group", subcommands: [CommandSpec("leaf", "leaf", aliases: ["petal"]) { _, _ in }]),
    ])

  func parse(_ arguments: String...) throws -> ParsedArguments {
    guard case .run(_, let parsed) = try ArgumentParser.parse(arguments, root: Self.root, globalOptions: [.flag("json", "json")]) else {
      throw UsageError("expected a run", commandPath: [])
    }
    return parsed
  }

  @Test func keepsOptionOrderSoRadiiPairWithPlaces() throws {
    let parsed = try parse("add", "Milk", "--at", "1,2", "--radius", "150", "--at=3,4", "-q", "--json")
    #expect(parsed.options.map(\.name) == ["at", "radius", "at", "quiet", "json"])
    #expect(parsed.values("at") == ["1,2", "3,4"])
    #expect(parsed.positionals == ["Milk"])
  }

  /// "import Groceries.csv": a file where a command was expected names the
  /// subcommand that takes a FILE.
  @Test func aFileWhereACommandWasExpectedNamesTheCommandThatTakesOne() throws {
    let root = CommandSpec<Void>(
      "tool", "a tool",
      subcommands: [
        CommandSpec(
          "import", "import",
          subcommands: [
            CommandSpec("list", "a list", positionals: [("FILE", "a file")]) { _, _ in }, CommandSpec("ics", "a calendar", positionals: [("FILE", "a file")]) { _, _ in },
            CommandSpec("review", "review") { _, _ in },
          ])
      ])
    for (word, typed) in [("Groceries.csv", "list Groceries.csv"), ("takeout/Want to go.csv", "list \"takeout/Want to go.csv\""), ("tasks.ICS", "ics tasks.ICS")] {
      do {
        _ = try ArgumentParser.parse(["import", word], root: root, globalOptions: [])
        Issue.record("'\(word)' was taken as a command")
      } catch let error as UsageError {
        #expect("\(error)".contains("looks like a file: did you mean 'tool import \(typed)'?"), "\(error)")
      }
    }
  }

  @Test func negativeCoordinatesAreValuesNotOptions() throws {
    let parsed = try parse("add", "X", "--at", "-33.9,18.4", "--", "-not-an-option")
    #expect(parsed.value("at") == "-33.9,18.4")
    #expect(parsed.positionals == ["X", "-not-an-option"])
  }

  @Test(arguments: [
    (["add"], "needs TITLE"), (["add", "a", "b", "c"], "unexpected argument 'c'"), (["add", "a", "--at"], "needs a value"),
    (["add", "a", "--quiet=1"], "takes no value"), (["ad"], "did you mean 'add'?"), (["add", "a", "--radus", "1"], "did you mean '--radius'?"),
    (["group", "nope"], "unknown command 'nope'"), (["group", "Petal"], "unknown command 'Petal' for 'tool group' (did you mean 'leaf'?)"),
    // A word after a flag, one too many, was likely meant as the flag's value.
    (["add", "a", "b", "--quiet", "c"], "unexpected argument 'c' for 'tool add' (--quiet takes no value)"),
  ])
  func mistakesAreNamed(_ arguments: [String], _ message: String) {
    let error = #expect(throws: UsageError.self) { try ArgumentParser.parse(arguments, root: Self.root) }
    #expect(error?.message.contains(message) == true, "\(String(describing: error))")
  }

  @Test func helpAndGroupsWithoutASubcommandShowUsage() throws {
    guard case .help(_, let path) = try ArgumentParser.parse(["group"], root: Self.root) else {
      Issue.record("a group alone should show help")
      return
    }
    #expect(path == ["tool", "group"])
    guard case .help(let command, _) = try ArgumentParser.parse(["add", "--help"], root: Self.root) else {
      Issue.record("--help should show help")
      return
    }
    let text = HelpFormatter.render(command, path: ["tool", "add"], globalOptions: [])
    #expect(text.hasPrefix("usage: tool add TITLE [EXTRA] [options]"))
    #expect(text.contains("--at X") && text.contains("(repeatable)") && text.contains("-q, --quiet"))
  }
}

/// Walks a command tree: subcommand names first, then options and
/// positionals of the command reached. `--` ends options.
public enum ArgumentParser {
  public enum Outcome<Context> {
    case run(CommandSpec<Context>, ParsedArguments)
    /// `--help` / `-h`, or a group command given no subcommand.
    case help(CommandSpec<Context>, path: [String])
  }

  public static func parse<Context>(
    _ arguments: [String], root: CommandSpec<Context>, globalOptions: [OptionSpec] = []
  ) throws -> Outcome<Context> {
    var command = root
    var path = [root.name]
    var index = 0
    var parsed = ParsedArguments()
    // Global options may come before the subcommand.
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--help" || argument == "-h" { return .help(command, path: path) }
      if argument.hasPrefix("-"), argument != "-", argument != "--" {
        try consumeOption(arguments, &index, options: globalOptions + command.options, into: &parsed, path: path)
        continue
      }
      guard let sub = command.subcommands.first(where: { $0.name == argument }) else { break }
      command = sub
      path.append(sub.name)
      index += 1
    }
    if command.action == nil {
      if index < arguments.count {
        let known = command.subcommands.map(\.name)
        let typedWord = arguments[index].lowercased()
        let meant = command.subcommands.first { $0.aliases.contains(typedWord) }?.name ?? closest(arguments[index], known)
        var hint = meant.map { " (did you mean '\($0)'?)" } ?? ""
        // A file given where a command was expected ("import Groceries.csv"):
        // name the subcommand that takes one.
        let word = arguments[index]
        let parts = word.split(separator: ".")
        let takers = command.subcommands.filter { $0.positionals.first?.name == "FILE" }
        // The one named for the file's extension (.ics: `import ics`) first.
        if hint.isEmpty, word.contains("/") || parts.count > 1,
          let taker = takers.first(where: { $0.name == parts.last?.lowercased() }) ?? takers.first
        {
          let typed = word.contains(" ") ? "\"\(word)\"" : word
          hint = " ('\(word)' looks like a file: did you mean '\((path + [taker.name]).joined(separator: " ")) \(typed)'?)"
        }
        throw UsageError(
          "unknown command '\(arguments[index])' for '\(path.joined(separator: " "))'\(hint); "
            + "commands: \(known.joined(separator: ", "))", commandPath: path)
      }
      return .help(command, path: path)
    }
    var optionsEnded = false
    // A word right after a flag may have been meant as its value: said so if it is one too many.
    var flagJustBefore: String?
    var afterFlag: [Int: String] = [:]
    while index < arguments.count {
      let argument = arguments[index]
      if !optionsEnded && (argument == "--help" || argument == "-h") { return .help(command, path: path) }
      if !optionsEnded && argument == "--" {
        optionsEnded = true
        index += 1
        continue
      }
      if !optionsEnded, argument.hasPrefix("-"), argument.count > 1, Double(argument) == nil {
        try consumeOption(arguments, &index, options: globalOptions + command.options, into: &parsed, path: path)
        flagJustBefore = parsed.options.last.flatMap { $0.1 == nil ? $0.0 : nil }
        continue
      }
      afterFlag[parsed.positionals.count] = flagJustBefore
      flagJustBefore = nil
      parsed.positionals.append(argument)
      index += 1
    }
    let limit = command.variadicTail ? Int.max : command.positionals.count
    if parsed.positionals.count > limit {
      let hint = afterFlag[limit].map { " (--\($0) takes no value)" } ?? ""
      throw UsageError(
        "unexpected argument '\(parsed.positionals[limit])' for '\(path.joined(separator: " "))'\(hint)", commandPath: path)
    }
    if parsed.positionals.count < command.minimumPositionals {
      let missing = command.positionals[parsed.positionals.count].name
      throw UsageError("'\(path.joined(separator: " "))' needs \(missing)", commandPath: path)
    }
    parsed.commandPath = path
    return .run(command, parsed)
  }

  private static func consumeOption(
    _ arguments: [String], _ index: inout Int, options: [OptionSpec], into parsed: inout ParsedArguments, path: [String]
  ) throws {
    let argument = arguments[index]
    index += 1
    var name: String
    var inline: String?
    if argument.hasPrefix("--") {
      name = String(argument.dropFirst(2))
      if let equals = name.firstIndex(of: "=") {
        inline = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
    } else {
      guard argument.count == 2, let spec = options.first(where: { $0.short == argument.last }) else {
        throw UsageError("unknown option '\(argument)' for '\(path.joined(separator: " "))'", commandPath: path)
      }
      name = spec.name
    }
    guard let spec = options.first(where: { $0.name == name }) else {
      let hint = closest(name, options.map(\.name)).map { " (did you mean '--\($0)'?)" } ?? ""
      throw UsageError("unknown option '--\(name)' for '\(path.joined(separator: " "))'\(hint)", commandPath: path)
    }
    if !spec.repeatable, spec.kind != .flag, parsed.has(name) {
      throw UsageError("option '--\(name)' given twice", commandPath: path)
    }
    switch spec.kind {
    case .flag:
      if inline != nil { throw UsageError("option '--\(name)' takes no value", commandPath: path) }
      parsed.options.append((name, nil))
    case .value(let placeholder):
      if let inline {
        parsed.options.append((name, inline))
      } else {
        guard index < arguments.count else {
          throw UsageError("option '--\(name)' needs a value (\(placeholder))", commandPath: path)
        }
        parsed.options.append((name, arguments[index]))
        index += 1
      }
    }
  }

  static func closest(_ word: String, _ candidates: [String]) -> String? {
    candidates.filter { candidate in
      candidate.hasPrefix(word) || word.hasPrefix(candidate) || editDistanceAtMostTwo(word, candidate)
    }.first
  }

  static func editDistanceAtMostTwo(_ a: String, _ b: String) -> Bool {
    let a = Array(a)
    let b = Array(b)
    guard abs(a.count - b.count) <= 2 else { return false }
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      var current = [i] + [Int](repeating: 0, count: b.count)
      for j in 1...max(b.count, 1) where !b.isEmpty {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count] <= 2
  }
}

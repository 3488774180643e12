import ArgumentParsing
import Domain
import Composition
import Foundation

/// `whilehere user …`: the people whilehered serves, kept in the config
/// file with Argon2id password hashes only.
enum UserCommands {
  static var command: CommandSpec<CommandContext> {
    CommandSpec(
      "user", "Manage the people the daemon serves (config file)",
      subcommands: [
        CommandSpec(
          "add", "Add a person or set their password", positionals: [("NAME", "lower-case letters, digits, - or _")],
          options: [
            .value("password-file", "FILE", "read the password from FILE's first line ('-' for standard input) instead of asking"),
            .value("device", "NAME", repeatable: true, "a device allowed to report (OwnTracks device id); default any"),
          ], action: add),
        CommandSpec("list", "List the people in the config file", action: list),
        CommandSpec("remove", "Remove a person from the config file (their data stays)", positionals: [("NAME", "the person")], action: remove),
      ])
  }

  static func add(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let name = arguments.positional(0)!
    let password = try readPassword(arguments, context)
    guard password.count >= 8 else {
      throw UsageError("the password must have at least 8 characters", commandPath: arguments.commandPath)
    }
    let hash = try Runtime.passwordHasher().hash(password)
    let path = ConfigFileEditor.path(explicit: arguments.value("config"), environment: context.environment)
    let devices = arguments.values("device")
    try ConfigFileEditor.setPassword(person: name, hash: hash, devices: devices.isEmpty ? nil : devices, path: path)
    if context.json {
      context.printJSON(["person": name, "config": path])
    } else {
      context.output.out("Saved \(name)'s password (as an Argon2id hash) in \(path). Restart whilehered to apply.")
    }
  }

  static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let path = ConfigFileEditor.path(explicit: arguments.value("config"), environment: context.environment)
    let people = try ConfigFileEditor.people(path: path)
    if context.json {
      context.printJSON(people)
    } else if people.isEmpty {
      context.output.out("Nobody is configured in \(path). Add someone with: whilehere user add NAME")
    } else {
      people.forEach { context.output.out($0) }
    }
  }

  static func remove(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let name = arguments.positional(0)!
    let path = ConfigFileEditor.path(explicit: arguments.value("config"), environment: context.environment)
    guard try ConfigFileEditor.remove(person: name, path: path) else {
      throw DomainError.notFound(kind: "person", reference: name)
    }
    context.output.out("Removed \(name) from \(path). Their store is kept; delete it by hand if you mean to.")
  }

  static func readPassword(_ arguments: ParsedArguments, _ context: CommandContext) throws -> String {
    if let file = arguments.value("password-file") {
      let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: file)
      guard let data, let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first else {
        throw UsageError("cannot read a password from '\(file)'", commandPath: arguments.commandPath)
      }
      return String(line)
    }
    guard isatty(STDIN_FILENO) != 0, let typed = getpass("Password for \(arguments.positional(0)!): ") else {
      throw UsageError("no terminal to ask for the password: use --password-file FILE (or - for standard input)", commandPath: arguments.commandPath)
    }
    return String(cString: typed)
  }
}

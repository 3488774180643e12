import ArgumentParsing
import Composition
import Domain
import Foundation

/// `whilehere forget`: erases everything the store holds about the person,
/// after a confirmation, and says what it removed.
enum ForgetCommand {
  static var command: CommandSpec<CommandContext> {
    CommandSpec(
      "forget", "Erase everything stored about you (tasks, places, lists, imports, settings) on this machine",
      options: [.flag("yes", "do not ask (for scripts)")],
      discussion: "Other replicas you sync with keep their copies; syncing again would bring everything back.", action: run)
  }

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    if let daemon = LocalDaemon.running(store: try ConfigLoader.load(context.launchOptions).settings.store, environment: context.environment) {
      // Erasing files under a running daemon would lose what it writes next and confuse it.
      throw UsageError(
        "whilehered (pid \(daemon.pid)) holds this store; stop it first, then run forget (its people's data is in the store too)",
        commandPath: arguments.commandPath)
    }
    let state = try context.engine().context.store.state()
    let counts = [
      ("tasks", state.tasks.count), ("places", state.places.count), ("lists", state.lists.count),
      ("memberships", state.memberships.count), ("import rows", state.sourceEntries.count), ("settings", state.settings.count),
    ]
    let summary = counts.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
    let spec = context.settings.store
    if !arguments.has("yes") {
      guard isatty(STDIN_FILENO) != 0 else {
        throw UsageError("forget erases \(summary) in \(spec); run it at a terminal to confirm, or pass --yes", commandPath: arguments.commandPath)
      }
      context.output.out("This erases \(summary) in \(spec). Type 'forget' to go on:")
      guard context.readLine()?.trimmingCharacters(in: .whitespaces) == "forget" else {
        context.output.out("Nothing was erased.")
        return
      }
    }
    context.close()
    let result = try StoreEraser.erase(storeSpec: spec, environment: context.environment)
    if context.json {
      context.printJSON(["erased": summary, "removed": result.removed.joined(separator: ", "), "leftAlone": result.leftAlone.joined(separator: ", ")])
      return
    }
    context.output.out("Erased \(summary).")
    for path in result.removed { context.output.out("  removed \(path)") }
    for path in result.leftAlone { context.output.out("  left alone (not WhileHere's): \(path)") }
    context.output.out("Replicas you sync with still hold their copies; syncing again would bring everything back.")
  }
}

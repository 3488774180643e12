import ArgumentParsing
import Composition
import Persistence

/// `whilehere store …`: maintenance of the durable store.
enum StoreCommands {
  static var command: CommandSpec<CommandContext> {
    CommandSpec(
      "store", "Maintain the store",
      subcommands: [
        CommandSpec("compact", "Fold the operation log into a fresh snapshot now", action: compact),
        CommandSpec(
          "recover", "Open a store that lost part of itself with what is left (copies every file to recovered/ first)",
          action: recover),
      ])
  }

  static func recover(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let config = try ConfigLoader.load(context.launchOptions)
    let outcome = try StoreRepair.recover(storeSpec: config.settings.store, environment: context.environment)
    guard let setAside = outcome.setAside else {
      context.output.out("Nothing to recover: every part the manifest names is there.")
      return
    }
    context.output.out("Kept what was left. Lost:")
    for loss in outcome.losses { context.output.out("  - \(loss)") }
    context.output.out("The files as they were are in \(setAside) inside the store directory.")
  }

  static func compact(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let engine = try context.engine()
    guard let store = engine.context.store as? any CompactingStore else {
      context.output.out("The \(engine.context.store.describe().kind) store has no log to compact.")
      return
    }
    try store.compact()
    let description = store.describe()
    let details = Dictionary(description.details, uniquingKeysWith: { a, _ in a })
    context.output.out("Compacted \(description.location): snapshot \(details["snapshot"] ?? "?"), log \(details["log"] ?? "?")")
  }
}

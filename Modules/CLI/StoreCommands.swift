import ArgumentParsing
import Composition
import Persistence

/// `whilehere store …`: maintenance of the durable store.
enum StoreCommands {
  static var command: CommandSpec<CommandContext> {
    CommandSpec(
      "store", "Maintain the store",
      subcommands: [
        CommandSpec("compact", "Fold the operation log into a fresh snapshot now", action: compact)
      ])
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

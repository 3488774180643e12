import ArgumentParsing
import Composition
import Domain
import Persistence

/// `whilehere store …`: maintenance of the durable store.
enum StoreCommands {
  static var command: CommandSpec<CommandContext> {
    CommandSpec(
      "store", "Maintain the store",
      subcommands: [
        CommandSpec("compact", "Fold the operation log into a fresh snapshot now", action: compact),
        CommandSpec(
          "migrate", "Move the whole store, every stamp and its replica id, into a new store (sqlite:PATH or file:DIR)",
          options: [.value("to", "STORE", "the new store, which must not exist yet or be empty (required)")], action: migrate),
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

  /// Copies every record with its stamp into an empty store that takes the
  /// same replica id, then checks the two hold the same versions. The old
  /// store is left as it was: the person switches `store` when satisfied.
  static func migrate(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    guard let target = arguments.value("to") else {
      throw DomainError.invalidValue(field: "--to", value: "", allowed: "the new store, e.g. --to sqlite:~/.local/share/whilehere/store.sqlite")
    }
    let engine = try context.engine()
    let source = engine.context.store
    guard let runtime = context.runtime else { return }
    let destination = try runtime.openStore(target, newReplica: source.replica)
    defer { destination.close() }
    guard destination.state().versions.isEmpty, try destination.operations(since: nil).isEmpty else {
      throw DomainError.conflict("\(target) already holds data; migrate only into a new, empty store")
    }
    guard destination.replica == source.replica else {
      throw DomainError.conflict("\(target) exists with its own replica id \(destination.replica); migrate only into a store that does not exist yet")
    }
    let records = try source.operations(since: nil)
    try destination.merge(records)
    let before = source.state()
    let after = destination.state()
    guard after.versions == before.versions else {
      throw DomainError.conflict("the copy in \(target) does not hold the same versions as the store; nothing was switched, the old store is as it was")
    }
    // Folded into a snapshot with its sidecar where the store has a log: the
    // commands that read a few records then do not read a log of everything.
    try (destination as? any CompactingStore)?.compact()
    let counts = "\(Formatting.count(after.tasks.count, "task")), \(Formatting.count(after.places.count, "place")), \(Formatting.count(after.lists.count, "list"))"
    context.output.out("Moved \(Formatting.count(records.count, "record")) (\(counts)) with their stamps and replica id \(source.replica) to \(target).")
    context.output.out("Point \"store\" in your config (or --store) at \(target); the old store is left as it was (whilehere --store OLD forget removes it).")
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

import ArgumentParsing
import Domain
import Engine
import Foundation

/// `whilehere undo`: put back the last delete (task, place, list) or Mark
/// Done; `undo --list` shows what can still be put back (30 days).
enum UndoCommand {
  static var command: CommandSpec<CommandContext> {
    CommandSpec(
      "undo", "Put back the last deleted task, place or list, or un-mark the last Done",
      positionals: [("ID", "optional: which change (see --list); default the newest")], required: 0,
      options: [.flag("list", "show the changes that can be undone, newest first")],
      discussion: "Deleted lists and their places are kept 30 days.",
      action: run)
  }

  struct View: Encodable {
    let id: String
    let what: String
    let at: Date
  }

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    // Its entries are read alone and what it puts back is written in place.
    let journal = try context.engine(part: true).undo
    let id: (UndoJournal.Entry) -> String = { String($0.key.split(separator: ".").last ?? "") }
    if arguments.has("list") {
      let entries = journal.entries()
      if context.json { return context.printJSON(entries.map { View(id: id($0), what: $0.label, at: $0.at) }) }
      if entries.isEmpty { context.output.out("Nothing to undo.") }
      for entry in entries {
        context.output.out("\(context.style.dim(id(entry)))  \(Formatting.time(entry.at, in: context.style.timeZone))  \(CleanText.escaped(entry.label))")
      }
      return
    }
    let entry = try journal.undo(arguments.positionals.first)
    if context.json { return context.printJSON(View(id: id(entry), what: entry.label, at: entry.at)) }
    context.output.out("Undone: \(CleanText.escaped(entry.label))")
  }
}

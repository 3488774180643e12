import ArgumentParsing
import Domain
import Engine
import Foundation
import Importing

/// `whilehere import FILE`, `import review`, `import accept`, `import reject`.
enum ImportCommands {
  static var command: CommandSpec<CommandContext> {
    CommandSpec(
      "import", "Import saved places (Takeout lists, starred places, KML, GPX, GeoJSON, iCalendar) and review what needs a decision",
      subcommands: [
        CommandSpec(
          "list", "Import saved places into a list (Takeout CSV, Saved Places.json, KML, GPX, GeoJSON)",
          positionals: [("FILE", "e.g. Takeout/Saved/Groceries.csv, Saved Places.json, a My Maps .kml, a .gpx or a .geojson")],
          options: [.value("list", "NAME", "the list to create (default: the file's name)")], action: run),
        CommandSpec(
          "ics", "Import to-dos with location alarms from an iCalendar file (Nextcloud Tasks, Apple Reminders)",
          positionals: [("FILE", "an .ics file")], action: ExchangeCommands.importICalendar),
        CommandSpec("review", "Rows waiting for a decision, with their candidates", action: review),
        CommandSpec(
          "accept", "Accept a candidate for a row", positionals: [("ROW", "the row id (or a unique prefix) from 'import review'"), ("N", "the candidate number")],
          action: accept),
        CommandSpec(
          "search", "Search again for a row with other words", positionals: [("ROW", "the row id or prefix"), ("QUERY", "words to search")],
          action: search),
        CommandSpec(
          "enter", "Enter the row's place by hand", positionals: [("ROW", "the row id or prefix")],
          options: [.value("name", "NAME", "the place's name (default: the row's title)"), .value("at", "LAT,LON", "where it is (required)")],
          action: enter),
        CommandSpec("reject", "No place fits this row (it is kept, marked rejected)", positionals: [("ROW", "the row id or prefix")], action: reject),
      ])
  }

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let path = arguments.positionals[0]
    let list = try TakeoutList.read(path)
    let json = context.json
    // The import calls back on this same thread; the box only satisfies the type checker.
    final class OutputBox: @unchecked Sendable {
      let output: any TextOutput
      init(_ output: any TextOutput) { self.output = output }
    }
    let box = OutputBox(context.output)
    var control = ImportService.Control()
    control.progress = { done, total in
      let output = box.output
      if json {
        // On standard error, so standard output stays one JSON document.
        output.err(#"{"progress":{"done":\#(done),"total":\#(total)}}"#)
      } else if output.isTerminal {
        let width = 30
        let filled = total == 0 ? width : done * width / total
        FileHandle.standardError.write(Data("\r[\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] \(done)/\(total) rows".utf8))
        if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
      }
    }
    control.cancelled = { ImportCancellation.requested }
    ImportCancellation.begin()
    defer { ImportCancellation.end() }
    let summary = try context.imports().importList(list, file: (path as NSString).lastPathComponent, listName: arguments.value("list"), control: control)
    if context.json {
      struct View: Encodable {
        let list: String
        let listID: String
        let rows, matched, needsReview, unresolved, kept, duplicates: Int
      }
      return context.printJSON(
        View(
          list: summary.list.name, listID: summary.list.id.rawValue, rows: summary.rows, matched: summary.matched,
          needsReview: summary.needsReview, unresolved: summary.unresolved, kept: summary.kept, duplicates: summary.duplicates))
    }
    context.output.out(
      "Imported \(Formatting.count(summary.rows, "row")) into '\(summary.list.name)': \(summary.matched) matched, \(summary.needsReview) to review, "
        + "\(summary.unresolved) unresolved, \(summary.kept) kept from earlier decisions, \(summary.duplicates) duplicate rows")
    if summary.needsReview + summary.unresolved > 0 { context.output.out("Next: whilehere import review") }
  }

  static func review(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let pending = try context.imports().pending()
    if context.json { return context.printJSON(pending) }
    if pending.isEmpty { context.output.out("Nothing to review.") }
    for entry in pending {
      context.output.out("\(context.style.bold(CleanText.escaped(entry.title)))  \(context.style.dim(String(entry.id.prefix(8))))  \(entry.source):\(entry.line)")
      if case .candidates = entry.state {
        printCandidates(entry, context)
      } else {
        context.output.out("  no candidate: add the place by hand (whilehere place add … --list …) and reject the row")
      }
    }
  }

  static func accept(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    guard let number = Int(arguments.positionals[1]) else {
      throw DomainError.invalidValue(field: "candidate", value: arguments.positionals[1], allowed: "a number from 'import review'")
    }
    let entry = try context.imports().accept(arguments.positionals[0], candidate: number)
    context.output.out("Accepted for '\(entry.title)'")
  }

  static func search(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let entry = try context.imports().searchAgain(arguments.positionals[0], query: arguments.positionals[1])
    context.output.out("New candidates for '\(entry.title)':")
    printCandidates(entry, context)
  }

  static func printCandidates(_ entry: SourceEntry, _ context: CommandContext) {
    guard case .candidates(let candidates) = entry.state else { return }
    for (index, candidate) in candidates.enumerated() {
      context.output.out("  \(index + 1). \(CleanText.escaped(candidate.name))  \(candidate.category)  " + String(format: "%.2f", candidate.score))
    }
  }

  static func enter(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    guard let at = arguments.value("at") else {
      throw UsageError("give where the place is with --at LAT,LON", commandPath: arguments.commandPath)
    }
    let coordinate = try Coordinate(parsing: at)
    let imports = try context.imports()
    let row = imports.pending().first { $0.id.hasPrefix(arguments.positionals[0]) }
    let entry = try imports.enter(arguments.positionals[0], name: arguments.value("name") ?? row?.title ?? "", at: coordinate)
    context.output.out("Saved '\(arguments.value("name") ?? entry.title)' at \(coordinate) for '\(entry.title)'")
  }

  static func reject(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let entry = try context.imports().reject(arguments.positionals[0])
    context.output.out("Rejected '\(entry.title)' (kept as a rejected row)")
  }
}

import ArgumentParsing
import Domain
import Engine
import Foundation
import Persistence
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
        CommandSpec(
          "review", "Rows waiting for a decision, with their candidates",
          options: [
            .value("list", "NAME", "only rows of this list"),
            .value("limit", "N", "show at most N rows (default 50; 0 for all)"),
          ], action: review),
        CommandSpec(
          "accept", "Accept a candidate for a row, or with --first the first candidate of every row",
          positionals: [("ROW", "the row id (or a unique prefix) from 'import review'"), ("N", "the candidate number")], required: 0,
          options: [
            .flag("first", "accept the first candidate of every row waiting (of --list NAME only, if given)"),
            .value("list", "NAME", "with --first: only rows of this list"),
          ],
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
        let skipped: [String]
      }
      return context.printJSON(
        View(
          list: summary.list.name, listID: summary.list.id.rawValue, rows: summary.rows, matched: summary.matched,
          needsReview: summary.needsReview, unresolved: summary.unresolved, kept: summary.kept, duplicates: summary.duplicates,
          skipped: list.skipped))
    }
    context.output.out(
      "Imported \(Formatting.count(summary.rows, "row")) into '\(summary.list.name)': \(summary.matched) matched, \(summary.needsReview) to review, "
        + "\(summary.unresolved) unresolved, \(summary.kept) kept from earlier decisions, \(summary.duplicates) duplicate rows")
    if !list.skipped.isEmpty {
      let shown = list.skipped.prefix(5).joined(separator: "; ")
      context.output.out("Left out \(Formatting.count(list.skipped.count, "entry", plural: "entries")) that are not places: \(shown)\(list.skipped.count > 5 ? "; …" : "")")
    }
    if summary.needsReview + summary.unresolved > 0 { context.output.out("Next: whilehere import review") }
  }

  /// A row as `import review --json` prints it.
  struct ReviewView: Encodable {
    let id: String
    let title: String
    let list: String
    let source: String
    let line: Int
    let state: String
    let candidates: [NumberedPlaceView]
  }

  /// Rows waiting, of one list when `--list` is given.
  static func pending(_ arguments: ParsedArguments, _ context: CommandContext) throws -> [SourceEntry] {
    let pending = try context.imports().pending()
    guard let name = arguments.value("list") else { return pending }
    let list = try context.engine().places.lists.get(name)
    return pending.filter { $0.list == list.id }
  }

  static func review(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let pending = try pending(arguments, context)
    let limitText = arguments.value("limit") ?? (context.json ? "0" : "50")
    guard let limit = Int(limitText), limit >= 0 else {
      throw DomainError.invalidValue(field: "--limit", value: limitText, allowed: "a whole number, 0 for all")
    }
    let shown = limit == 0 ? pending : Array(pending.prefix(limit))
    let imports = try context.imports()
    let state = try context.engine().context.store.state()
    if context.json {
      return context.printJSON(shown.map { entry in
        var candidates: [NumberedPlaceView] = []
        if case .candidates(let found) = entry.state {
          candidates = found.enumerated().map { index, c in
            NumberedPlaceView(
              number: index + 1, ref: c.ref, name: c.name, category: c.category, address: imports.address(ofCandidate: c.ref),
              at: c.coordinate, score: c.score)
          }
        }
        return ReviewView(
          id: entry.id, title: entry.title, list: state.lists[entry.list]?.name ?? entry.list.rawValue, source: entry.source, line: entry.line,
          state: candidates.isEmpty ? "unresolved" : "candidates", candidates: candidates)
      })
    }
    if pending.isEmpty { context.output.out("Nothing to review.") }
    for entry in shown {
      let row = String(entry.id.prefix(8))
      context.output.out("\(context.style.bold(CleanText.escaped(entry.title)))  \(context.style.dim(row))  \(entry.source):\(entry.line)")
      if case .candidates = entry.state {
        printCandidates(entry, context, imports: imports)
      } else {
        context.output.out("  no candidate: whilehere import search \(row) \"other words\", or whilehere import enter \(row) --at LAT,LON")
      }
    }
    if shown.count < pending.count {
      context.output.out(context.style.dim("… and \(pending.count - shown.count) more (--limit 0 shows all; --list NAME one list; import accept --first takes every first candidate)"))
    }
  }

  static func accept(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    if arguments.has("first") {
      guard arguments.positionals.isEmpty else {
        throw UsageError("--first accepts every row's first candidate; give no ROW with it", commandPath: arguments.commandPath)
      }
      let imports = try context.imports()
      var accepted = 0
      for entry in try pending(arguments, context) {
        guard case .candidates(let found) = entry.state, !found.isEmpty else { continue }
        _ = try imports.accept(entry.id, candidate: 1)
        accepted += 1
      }
      context.output.out("Accepted the first candidate of \(Formatting.count(accepted, "row")).")
      return
    }
    guard arguments.positionals.count == 2 else {
      throw UsageError("give ROW and N (the candidate number), or --first", commandPath: arguments.commandPath)
    }
    guard let number = Int(arguments.positionals[1]) else {
      throw DomainError.invalidValue(field: "candidate", value: arguments.positionals[1], allowed: "a number from 'import review'")
    }
    let entry = try context.imports().accept(arguments.positionals[0], candidate: number)
    context.output.out("Accepted for '\(entry.title)'")
  }

  static func search(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let imports = try context.imports()
    let entry = try imports.searchAgain(arguments.positionals[0], query: arguments.positionals[1])
    context.output.out("New candidates for '\(entry.title)':")
    printCandidates(entry, context, imports: imports)
  }

  /// Name, category, address and position: three "Hesburger" lines must be told apart.
  static func printCandidates(_ entry: SourceEntry, _ context: CommandContext, imports: ImportService) {
    guard case .candidates(let candidates) = entry.state else { return }
    for (index, candidate) in candidates.enumerated() {
      let address = imports.address(ofCandidate: candidate.ref).map { "  " + CleanText.escaped($0) } ?? ""
      context.output.out(
        "  \(index + 1). \(CleanText.escaped(candidate.name))  \(candidate.category)\(address)  "
          + Formatting.coordinate(candidate.coordinate.latitude, candidate.coordinate.longitude) + "  " + String(format: "%.2f", candidate.score))
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

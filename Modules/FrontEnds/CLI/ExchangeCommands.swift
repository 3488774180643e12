import ArgumentParsing
import Composition
import Domain
import Engine
import Foundation

/// `whilehere export geojson|ics` and `whilehere import ics`: open formats.
enum ExchangeCommands {
  static var export: CommandSpec<CommandContext> {
    CommandSpec(
      "export", "Write your data in open formats",
      subcommands: [
        CommandSpec("geojson", "Places and lists as GeoJSON", options: [output], action: geoJSON),
        CommandSpec("ics", "Tasks with their places as iCalendar location reminders (VTODO + VALARM)", options: [output], action: iCalendar),
      ])
  }

  static let output = OptionSpec.value("out", "FILE", "write to FILE (0600) instead of standard output")

  static func geoJSON(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let result = ExchangeService(context: try context.engine().context).geoJSON()
    try write(result.data, arguments, context, summary: Formatting.count(result.places, "place") + (result.withoutCoordinate > 0 ? " (\(result.withoutCoordinate) without a coordinate left out)" : ""))
  }

  static func iCalendar(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let result = ExchangeService(context: try context.engine().context).iCalendar()
    try write(Data(result.text.utf8), arguments, context, summary: Formatting.count(result.tasks, "task"))
  }

  static func write(_ data: Data, _ arguments: ParsedArguments, _ context: CommandContext, summary: String) throws {
    guard let path = arguments.value("out") else {
      context.output.out(String(decoding: data, as: UTF8.self))
      return
    }
    let temporary = path + ".tmp"
    guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]), rename(temporary, path) == 0 else {
      unlink(temporary)
      throw DomainError.invalidValue(field: "--out", value: path, allowed: "a path that can be written")
    }
    context.output.out("Wrote \(summary) to \(path).")
  }

  static func importICalendar(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let path = arguments.positional(0)!
    guard let data = FileManager.default.contents(atPath: path) else { throw DomainError.notFound(kind: "file", reference: path) }
    guard let text = String(data: data, encoding: .utf8) else {
      throw DomainError.invalidValue(field: "FILE", value: path, allowed: "UTF-8 iCalendar text")
    }
    let report = try ExchangeService(context: try context.engine().context).importICalendar(text)
    if context.json {
      context.printJSON(report)
      return
    }
    context.output.out("Imported \(Formatting.count(report.created.count, "task")) from \(path).")
    for title in report.created {
      let saved = report.savedPlaces[title].map { " (at " + $0.map(CleanText.escaped).joined(separator: ", ") + ")" } ?? ""
      context.output.out("  + \(CleanText.escaped(title))\(saved)")
    }
    for title in report.adjusted { context.output.out("  ~ \(title): a radius was moved into the allowed range") }
    for (title, reason) in report.skipped.sorted(by: { $0.key < $1.key }) { context.output.out("  - \(title): \(reason)") }
  }
}

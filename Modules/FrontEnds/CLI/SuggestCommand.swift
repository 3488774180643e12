import ArgumentParsing
import Domain
import Engine
import Foundation
import Providers

/// `whilehere suggest "buy milk" --near LAT,LON`, and the suggestion step of
/// `task add --suggest`.
enum SuggestCommand {
  static let options: [OptionSpec] = [
    .value("near", "LAT,LON|PLACE", "where you are, or a saved place (default: around your saved places)"),
    .value("within", "METRES", "how far to look (default 2000)"),
    .value("limit", "N", "how many (default 10)"),
  ]

  static var command: CommandSpec<CommandContext> {
    CommandSpec(
      "suggest", "Suggest nearby places where a task can be done (\"milk\" → supermarkets)",
      positionals: [("TEXT", "the task, e.g. \"buy milk\"")], options: options,
      discussion: "Places come from the configured place provider (the embedded central-Helsinki OpenStreetMap places by default).",
      action: run)
  }

  static func suggestions(_ text: String, _ arguments: ParsedArguments, _ context: CommandContext) throws -> [Suggester.Suggestion] {
    let within = try arguments.value("within").map { try LocationArguments.meters($0) } ?? 2000
    guard within > 0, within <= 50_000 else {
      throw DomainError.invalidValue(field: "--within", value: String(within), allowed: "1...50000 metres")
    }
    let limitText = arguments.value("limit") ?? "10"
    guard let limit = Int(limitText), (1...100).contains(limit) else {
      throw DomainError.invalidValue(field: "--limit", value: limitText, allowed: "1...100")
    }
    guard let near = arguments.value("near") else {
      let along = try context.suggestions().suggestAlongSavedPlaces(text, radius: min(within, 1000), limit: limit)
      // Suggestions came from saved places, so there are some; else ask (both read every name).
      guard try !along.isEmpty || context.engine(part: true).places.any() else {
        throw UsageError("give where you are with --near LAT,LON (or save a place, and suggestions come from around your saved places)", commandPath: arguments.commandPath)
      }
      return along
    }
    return try context.suggestions().suggest(text, near: try LocationArguments.point(near, context), radius: within, limit: limit)
  }

  static func views(_ suggestions: [Suggester.Suggestion], _ context: CommandContext) throws -> [NumberedPlaceView] {
    NumberedPlaceView.suggestions(suggestions, at: try context.engine(part: true).context.clock.now(), in: context.style.timeZone)
  }

  static func print(_ views: [NumberedPlaceView], _ context: CommandContext) {
    for view in views {
      var line = "\(view.number). \(context.style.bold(view.name))  \(view.distance.map(Formatting.meters) ?? "")  \(view.category)"
      if let address = view.address { line += "  " + context.style.dim(address) }
      if let open = view.openText { line += "  " + open }
      context.output.out(line)
    }
  }

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let text = arguments.positionals[0]
    let found = try views(try suggestions(text, arguments, context), context)
    if context.json { return context.printJSON(found) }
    if found.isEmpty {
      let within = (try? arguments.value("within").map { try LocationArguments.meters($0) }) ?? 2000
      // At the widest search already, a wider one is no advice.
      let hint = within >= 50_000 ? "Try other words." : "Try a wider --within (up to 50000), or other words."
      context.output.out("No suggestions for '\(text)' within \(Formatting.meters(within)). " + hint)
      return
    }
    print(found, context)
  }
}

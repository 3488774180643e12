import ArgumentParsing
import Domain
import Engine

/// `whilehere search` and `whilehere check`.
enum QueryCommands {
  static var search: CommandSpec<CommandContext> {
    CommandSpec(
      "search", "Search saved places by name and tags (accents and case ignored)",
      positionals: [("QUERY", "words to find; empty lists everything")], required: 0,
      options: [
        .value("list", "LIST", "only places in this list"),
        .value("near", "LAT,LON|PLACE", "sort nearest first from this point or saved place (default: A–Z)"),
        .value("sort", "ORDER", "az or nearest (nearest needs --near)"),
      ], action: runSearch)
  }

  static var check: CommandSpec<CommandContext> {
    CommandSpec(
      "check", "What would fire at a point: active tasks whose place radius contains it",
      options: [.value("at", "LAT,LON|PLACE", "the point, or a saved place (required)")], action: runCheck)
  }

  static func runSearch(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let near = try arguments.value("near").map { try LocationArguments.point($0, context) }
    let sort = arguments.value("sort") ?? (near == nil ? "az" : "nearest")
    let order: PlaceSearch.Order
    switch (sort, near) {
    case ("az", _): order = .alphabetical
    case ("nearest", let point?): order = .nearest(point)
    case ("nearest", nil):
      throw UsageError("--sort nearest needs --near LAT,LON", commandPath: arguments.commandPath)
    default:
      throw UsageError("unknown sort '\(sort)'; use az or nearest", commandPath: arguments.commandPath)
    }
    let engine = try context.engine()
    let results = try engine.places.search(arguments.positional(0) ?? "", in: arguments.value("list"), order: order)
    let lists = try engine.places.listsByPlace()
    let views = results.map { PlaceView($0.place, lists: lists[$0.place.id, default: []].map(\.name), distance: $0.distance) }
    if context.json { return context.printJSON(views) }
    if views.isEmpty { context.output.out("No saved place matches '\(arguments.positional(0) ?? "")'.") }
    views.forEach { context.output.out($0.line(context.style)) }
  }

  struct HitView: Encodable {
    let task: String
    let title: String
    let location: Int
    let locationID: String
    let lat: Double
    let lon: Double
    let radius: Double
    let distance: Double
  }

  static func runCheck(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    guard let at = arguments.value("at") else {
      throw UsageError("give the point with --at LAT,LON", commandPath: arguments.commandPath)
    }
    let point = try LocationArguments.point(at, context)
    let hits = try context.engine(part: true).check.check(at: point).map {
      HitView(
        task: $0.task.id.rawValue, title: $0.task.title, location: $0.priority, locationID: $0.location.id.rawValue,
        lat: $0.center.latitude, lon: $0.center.longitude, radius: $0.location.radius, distance: $0.distance)
    }
    if context.json { return context.printJSON(hits) }
    if hits.isEmpty { context.output.out("Nothing would fire at \(point).") }
    for hit in hits {
      context.output.out(
        "\(context.style.bold(hit.title))  \(context.style.dim(hit.task))  place \(hit.location): "
          + "\(Formatting.meters(hit.distance)) from centre, radius \(Formatting.meters(hit.radius))")
    }
    // Otherwise a task only for open hours at a closed place would just be missing, with no reason given.
    for hit in try context.engine(part: true).check.waiting(at: point) {
      context.output.out(
        "\(context.style.bold(CleanText.escaped(hit.task.title)))  \(context.style.dim(hit.task.id.rawValue))  place \(hit.priority): "
          + context.style.yellow("waits: its place is closed now (only while open)"))
    }
  }
}

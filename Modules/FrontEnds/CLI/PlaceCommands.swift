import ArgumentParsing
import Domain
import Engine

/// `whilehere place …`
enum PlaceCommands {
  static let placeArgument = ("PLACE", "id, id prefix or name")

  static var command: CommandSpec<CommandContext> {
    CommandSpec(
      "place", "Keep saved places: add, correct, tag, delete",
      subcommands: [
        CommandSpec(
          "add", "Save a place", positionals: [("NAME", "the place's name")],
          options: [
            .value("at", "LAT,LON", "where it is (required)"), .value("address", "TEXT", "street address"),
            .value("tag", "TAG", repeatable: true, "a tag"), .value("note", "TEXT", "a note"),
            .value("list", "LIST", repeatable: true, "also add it to this list"),
          ], action: add),
        CommandSpec("list", "List saved places A–Z", action: list),
        CommandSpec(
          "search", "Find a place anywhere in the map data by name or address (offline with the embedded data)",
          positionals: [("QUERY", "a name or an address, e.g. \"Stockmann\" or \"Mannerheimintie 22\"")],
          options: [
            .value("near", "LAT,LON|PLACE", "nearest first from here"), .value("limit", "N", "at most N (default 10)"),
            .value("save", "N", "save result N as a place"),
          ], action: search),
        CommandSpec("show", "Show one place", positionals: [placeArgument], action: show),
        CommandSpec(
          "edit", "Correct a place's name, address, note or position", positionals: [placeArgument],
          options: [
            .value("name", "TEXT", "new name"), .value("address", "TEXT", "new address"),
            .value("note", "TEXT", "new note"), .value("to", "LAT,LON", "new position"),
          ], action: edit),
        CommandSpec(
          "tag", "Add tags", positionals: [placeArgument, ("TAG", "one or more tags")], variadicTail: true, action: tag),
        CommandSpec(
          "untag", "Remove tags", positionals: [placeArgument, ("TAG", "one or more tags")], variadicTail: true,
          action: untag),
        CommandSpec(
          "delete", "Delete a place (refused while a task uses it)", positionals: [placeArgument], aliases: ["remove", "rm"], action: delete),
        CommandSpec(
          "refresh", "Renew provider data (name, position, address) of saved places; your own edits stay",
          positionals: [("PLACE", "one place (default: every place with provider data)")], required: 0,
          options: [.flag("expired", "only places whose provider data has expired")], action: refresh),
      ])
  }

  static func add(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    guard let at = arguments.value("at") else {
      throw UsageError("give the place's position with --at LAT,LON", commandPath: arguments.commandPath)
    }
    let coordinate = try Coordinate(parsing: at)
    // Resolve lists first so a bad list name saves nothing.
    let lists = arguments.values("list")
    let engine = try context.engine(part: lists.isEmpty)
    for list in lists { _ = try engine.places.lists.show([list]) }
    let place = try engine.places.add(
      name: arguments.positionals[0], coordinate: coordinate, address: arguments.value("address"),
      tags: arguments.values("tag"), note: arguments.value("note") ?? "")
    for list in lists { _ = try engine.places.lists.add(place: place.id.rawValue, to: list) }
    try show(place, context, heading: "Saved")
  }

  static func show(_ place: Place, _ context: CommandContext, heading: String? = nil) throws {
    let lists = try context.engine(part: true).places.lists(of: place.id).map(\.name)
    let view = PlaceView(place, lists: lists)
    if context.json { return context.printJSON(view) }
    if let heading { context.output.out(heading + ":") }
    view.detailLines(context.style).forEach(context.output.out)
  }

  static func search(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let limitText = arguments.value("limit") ?? "10"
    guard let limit = Int(limitText), (1...100).contains(limit) else {
      throw DomainError.invalidValue(field: "--limit", value: limitText, allowed: "1...100")
    }
    let near = try arguments.value("near").map { try LocationArguments.point($0, context) }
    let found = try context.suggestions().find(arguments.positionals[0], near: near, limit: limit)
    if let pick = arguments.value("save") {
      guard let number = Int(pick), (1...max(found.count, 1)).contains(number), !found.isEmpty else {
        throw DomainError.invalidValue(field: "--save", value: pick, allowed: found.isEmpty ? "a result number (there are none)" : "1...\(found.count)")
      }
      let id = try context.suggestions().save([found[number - 1]])[0]
      let place = try context.engine(part: true).places.get(id.rawValue)
      if context.json { return context.printJSON(PlaceView(place)) }
      context.output.out("Saved:")
      PlaceView(place).detailLines(context.style).forEach(context.output.out)
      return
    }
    // The map data is searched, not the store: nothing of it is read here.
    let now = try context.engine(part: true).context.clock.now()
    if context.json {
      return context.printJSON(found.enumerated().map { index, place in
        NumberedPlaceView(
          number: index + 1, ref: place.ref, name: place.name, category: place.category, address: place.address,
          at: place.coordinate, distance: near.map { place.coordinate.distance(to: $0) }, reason: "search"
        ).with(hours: place.openingHours, at: now, in: context.style.timeZone)
      })
    }
    if found.isEmpty {
      context.output.out("Nothing in the map data is named '\(arguments.positionals[0])' or has that address.")
      return
    }
    for (index, place) in found.enumerated() {
      var line = "\(index + 1). \(context.style.bold(CleanText.escaped(place.name)))  \(place.category)"
      if let address = place.address { line += "  " + CleanText.escaped(address) }
      line += "  " + Formatting.coordinate(place.coordinate.latitude, place.coordinate.longitude)
      if let near { line += "  " + Formatting.meters(place.coordinate.distance(to: near)) + " away" }
      if let open = place.isOpen(at: now, in: context.style.timeZone) { line += open ? "  open now" : "  closed now" }
      context.output.out(line)
    }
    context.output.out(context.style.dim("Save one: whilehere place search \"\(arguments.positionals[0])\" --save N (or use the name in task add --at)"))
  }

  static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let engine = try context.engine()
    let lists = try engine.places.listsByPlace()
    let views = engine.places.all().map { PlaceView($0, lists: lists[$0.id, default: []].map(\.name)) }
    if context.json { return context.printJSON(views) }
    if views.isEmpty { context.output.out("No saved places. Add one: whilehere place add \"Alepa\" --at 60.1699,24.9384") }
    context.output.out(lines: views.map { $0.line(context.style) })
  }

  static func show(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    try show(try context.engine(part: true).places.get(arguments.positionals[0]), context)
  }

  static func edit(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    guard ["name", "address", "note", "to"].contains(where: arguments.has) else {
      throw UsageError("nothing to change: give --name, --address, --note or --to", commandPath: arguments.commandPath)
    }
    let to = try arguments.value("to").map { try Coordinate(parsing: $0) }
    let place = try context.engine(part: true).places.edit(
      arguments.positionals[0], name: arguments.value("name"), address: arguments.value("address"),
      note: arguments.value("note"), to: to)
    try show(place, context, heading: "Updated")
  }

  static func tag(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let place = try context.engine(part: true).places.tag(arguments.positionals[0], Array(arguments.positionals.dropFirst()))
    try show(place, context, heading: "Tagged")
  }

  static func untag(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let place = try context.engine(part: true).places.untag(arguments.positionals[0], Array(arguments.positionals.dropFirst()))
    try show(place, context, heading: "Untagged")
  }

  static func refresh(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    _ = try context.engine()
    let ids = try arguments.positional(0).map { [try context.engine().places.get($0).id] } ?? []
    let outcome = try context.refresher().refresh(ids, expiredOnly: arguments.has("expired"))
    if context.json {
      struct View: Encodable {
        let refreshed: Int
        let gone: [String]
        let failed: [String]
      }
      return context.printJSON(View(refreshed: outcome.refreshed, gone: outcome.gone, failed: outcome.failed))
    }
    context.output.out("Refreshed \(Formatting.count(outcome.refreshed, "place")).")
    for name in outcome.gone { context.output.out("  \(name): the provider no longer has it (kept as it was)") }
    for line in outcome.failed { context.output.out("  failed: \(line) (kept as it was)") }
  }

  static func delete(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let place = try context.engine(part: true).places.delete(arguments.positionals[0])
    if context.json { return context.printJSON(["deleted": place.id.rawValue]) }
    context.output.out("Deleted place '\(place.name)' (\(place.id))")
  }
}

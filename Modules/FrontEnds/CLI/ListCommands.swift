import ArgumentParsing
import Domain
import Engine

/// `whilehere list …`
enum ListCommands {
  struct ListSummary: Encodable {
    let id: String
    let name: String
    let places: Int
  }

  struct ListContents: Encodable {
    let lists: [ListSummary]
    let places: [PlaceView]
  }

  static var command: CommandSpec<CommandContext> {
    CommandSpec(
      "list", "Lists of places: create, fill, show, combine, delete",
      subcommands: [
        CommandSpec("create", "Create a list", positionals: [("NAME", "the list's name")], action: create),
        CommandSpec("all", "Show every list with its size", action: all),
        CommandSpec(
          "show", "Show one list, or the Combined view of several", positionals: [("LIST", "one or more lists")],
          variadicTail: true, action: show),
        CommandSpec(
          "add", "Add a place to a list", positionals: [("LIST", "the list"), ("PLACE", "the place")], action: add),
        CommandSpec(
          "remove", "Remove a place from a list (the place stays saved)",
          positionals: [("LIST", "the list"), ("PLACE", "the place")], action: remove),
        CommandSpec(
          "delete", "Delete a list; places in other lists or used by tasks stay", positionals: [("LIST", "the list")],
          options: [.flag("keep-places", "keep every place, even those in no other list")], action: delete),
      ])
  }

  static func create(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let list = try context.engine(part: true).places.lists.create(arguments.positionals[0])
    if context.json { return context.printJSON(ListSummary(id: list.id.rawValue, name: list.name, places: 0)) }
    context.output.out("Created list '\(list.name)' (\(list.id))")
  }

  static func all(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let lists = try context.engine(part: true).places.lists.all().map {
      ListSummary(id: $0.list.id.rawValue, name: $0.list.name, places: $0.count)
    }
    if context.json { return context.printJSON(lists) }
    if lists.isEmpty { context.output.out("No lists. Create one: whilehere list create Groceries") }
    for list in lists {
      context.output.out("\(context.style.bold(CleanText.escaped(list.name)))  \(context.style.dim(list.id))  \(Formatting.count(list.places, "place"))")
    }
  }

  static func show(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let (lists, entries) = try context.engine(part: true).places.lists.show(arguments.positionals)
    var counts: [String: Int] = [:]
    for entry in entries { for name in entry.lists { counts[name, default: 0] += 1 } }
    let contents = ListContents(
      lists: lists.map { ListSummary(id: $0.id.rawValue, name: $0.name, places: counts[$0.name] ?? 0) },
      places: entries.map { PlaceView($0.place, lists: $0.lists) })
    if context.json { return context.printJSON(contents) }
    let title = lists.count == 1 ? lists[0].name : "Combined: " + lists.map(\.name).joined(separator: " + ")
    context.output.out(context.style.bold(title) + "  (\(Formatting.count(entries.count, "place")))")
    for view in contents.places { context.output.out("  " + view.line(context.style)) }
  }

  static func add(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let (list, place) = try context.engine(part: true).places.lists.add(place: arguments.positionals[1], to: arguments.positionals[0])
    if context.json { return context.printJSON(["list": list.id.rawValue, "place": place.id.rawValue]) }
    context.output.out("Added '\(place.name)' to '\(list.name)'")
  }

  static func remove(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let (list, place) = try context.engine(part: true).places.lists.remove(place: arguments.positionals[1], from: arguments.positionals[0])
    if context.json { return context.printJSON(["list": list.id.rawValue, "place": place.id.rawValue]) }
    context.output.out("Removed '\(place.name)' from '\(list.name)'")
  }

  static func delete(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let deletion = try context.engine(part: true).places.lists.delete(arguments.positionals[0], keepPlaces: arguments.has("keep-places"))
    if context.json {
      struct Deleted: Encodable {
        let deleted: String
        let placesKept: Int
        let placesRemoved: [String]
      }
      return context.printJSON(
        Deleted(deleted: deletion.list.id.rawValue, placesKept: deletion.placesKept, placesRemoved: deletion.placesRemoved.map(\.id.rawValue)))
    }
    let name = CleanText.escaped(deletion.list.name)
    context.output.out(
      "Deleted list '\(name)': \(Formatting.count(deletion.placesKept, "place")) kept (in other lists or used by tasks), "
        + "\(deletion.placesRemoved.count) removed with it")
    for place in deletion.placesRemoved { context.output.out("  - \(CleanText.escaped(place.name))  " + context.style.dim(place.id.rawValue)) }
    if !deletion.placesRemoved.isEmpty {
      context.output.out("To get the list and its places back: whilehere undo (kept 30 days; next time --keep-places keeps the places)")
    }
  }
}

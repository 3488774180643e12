import ArgumentParsing
import Domain
import Engine
import Foundation
import Locking
import Persistence
import Providers

/// `whilehere task …`
enum TaskCommands {
  static let locationOptions: [OptionSpec] = [
    .value("at", "LAT,LON|PLACE", repeatable: true, "a place for the task: a coordinate or a saved place's name or id"),
    .value("place", "PLACE", repeatable: true, "a saved place (same as --at PLACE)"),
    .value("radius", "METRES", repeatable: true, "trigger radius for the --at before it (default from config)"),
  ]

  static var command: CommandSpec<CommandContext> {
    CommandSpec(
      "task", "Create, change and answer tasks tied to places",
      subcommands: [
        CommandSpec(
          "add", "Create a task tied to one or more places", positionals: [("TITLE", "what to do")],
          options: locationOptions + [
            .value("notes", "TEXT", "free notes"), .value("keywords", "WORDS", "comma-separated keywords"),
            .flag("only-while-open", "remind only while the place is open (its OpenStreetMap opening hours)"),
            .flag("suggest", "tie it to suggested places near --near (see 'whilehere suggest')"),
            .value("pick", "N,N", "with --suggest: which suggestions (asked on a terminal if not given)"),
          ] + SuggestCommand.options,
          discussion: """
            examples: whilehere task add "Buy milk" --at 60.1699,24.9384 --radius 150 --at 60.1675,24.9316 --radius 80
                      whilehere task add "Buy milk" --suggest --near 60.1699,24.9384 --pick 1,2 --radius 100
                      whilehere task add "Buy stamps" --suggest --near 60.1699,24.9384 --pick 1 --only-while-open
            """,
          action: add),
        CommandSpec(
          "list", "List tasks (oldest first)",
          options: [.value("state", "STATE", "all, active, snoozed or done/completed (default all)")], action: list),
        CommandSpec("show", "Show one task with its places", positionals: [("TASK", "id, id prefix or title")], action: show),
        CommandSpec(
          "edit", "Change a task's title, notes or keywords, or when it may remind", positionals: [("TASK", "id, id prefix or title")],
          options: [
            .value("title", "TEXT", "new title"), .value("notes", "TEXT", "new notes"),
            .value("keywords", "WORDS", "new comma-separated keywords"),
            .flag("only-while-open", "remind only while the place is open"),
            .flag("any-time", "remind whether or not the place is open"),
          ], action: edit),
        CommandSpec(
          "done", "Mark Done: every place of the task stops counting", positionals: [("TASK", "id, id prefix or title")],
          aliases: ["complete", "finish", "finished"], action: done),
        CommandSpec(
          "later", "Remind Later: snooze the task", positionals: [("TASK", "id, id prefix or title")],
          options: [.value("for", "DURATION", "how long, e.g. 30m, 2h, 1d, 1w (default: reminders.laterDuration, 1h)")],
          aliases: ["snooze", "postpone", "defer"], action: later),
        CommandSpec(
          "wake", "End a snooze now (un-snooze)", positionals: [("TASK", "id, id prefix or title")], aliases: ["unsnooze", "un-snooze"],
          action: wake),
        CommandSpec("reopen", "Reopen a done task", positionals: [("TASK", "id, id prefix or title")], action: reopen),
        CommandSpec("delete", "Delete a task", positionals: [("TASK", "id, id prefix or title")], aliases: ["remove", "rm"], action: delete),
        CommandSpec(
          "add-place", "Tie the task to one more place", positionals: [("TASK", "id, id prefix or title")],
          options: locationOptions, action: addPlace),
        CommandSpec(
          "remove-place", "Untie a place from the task",
          positionals: [("TASK", "id, id prefix or title"), ("N", "the place's number (see task show) or id")],
          action: removePlace),
        CommandSpec(
          "priority", "Move a place to another priority (1 = first)",
          positionals: [("TASK", "id, id prefix or title"), ("N", "the place's number or id"), ("PRIORITY", "new position")],
          action: priority),
        CommandSpec(
          "move", "Move one of the task's places", positionals: [("TASK", "id, id prefix or title"), ("N", "the place's number or id")],
          options: [.value("to", "LAT,LON", "the new coordinate")], action: move),
        CommandSpec(
          "radius", "Change the trigger radius of one place",
          positionals: [("TASK", "id, id prefix or title"), ("N", "the place's number or id"), ("METRES", "new radius")],
          action: radius),
        CommandSpec(
          "disable", "Stop one place from counting",
          positionals: [("TASK", "id, id prefix or title"), ("N", "the place's number or id")], action: { try enable($0, $1, false) }),
        CommandSpec(
          "enable", "Let a disabled place count again",
          positionals: [("TASK", "id, id prefix or title"), ("N", "the place's number or id")], action: { try enable($0, $1, true) }),
      ])
  }

  static func keywords(_ text: String?) -> [String]? {
    text.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
  }

  static func add(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    if arguments.has("suggest") { return try addSuggested(arguments, context) }
    let typed = try LocationArguments.specs(arguments)
    guard !typed.isEmpty else {
      // --near alone was taken for "the place near here"; it only says where --suggest looks.
      if let near = arguments.value("near") {
        throw UsageError(
          "--near says where --suggest looks; add --suggest to choose places near \(near), or give the place with --at LAT,LON (or --at PLACE)",
          commandPath: arguments.commandPath)
      }
      throw UsageError("a task needs at least one --at LAT,LON (or --at PLACE)", commandPath: arguments.commandPath)
    }
    let engine = try context.engine(part: true)
    // Validate what can be validated before a map place is saved for it.
    _ = try ReminderTask.validTitle(arguments.positionals[0])
    for radius in typed.compactMap(\.radius) { _ = try engine.context.radii.validate(radius) }
    let specs = try LocationArguments.resolvingMapPlaces(typed, context)
    let task = try engine.tasks.add(
      title: arguments.positionals[0], locations: specs, notes: arguments.value("notes") ?? "",
      keywords: keywords(arguments.value("keywords")) ?? [], onlyWhileOpen: arguments.has("only-while-open"))
    try showWritten(task, context, heading: "Added")
    warnAboutHours(of: task, context)
    warnAboutTwins(of: task, context)
  }

  /// "Only while open" with no place whose hours are known changes nothing; say so and how to fix it.
  static func warnAboutHours(of task: ReminderTask, _ context: CommandContext) {
    guard task.onlyWhileOpen, let state = try? context.engine(part: true).tasks.lookUp(task.id.rawValue).state else { return }
    let unknown = task.locations.filter { state.hours(of: $0) == nil }
    guard !unknown.isEmpty else { return }
    let all = unknown.count == task.locations.count
    context.output.err(
      "note: \(all ? "no place of this task has" : "\(unknown.count) of its \(task.locations.count) places \(unknown.count == 1 ? "has" : "have") no") opening hours known here, "
        + "so \(all ? "they count" : "those count") as always open. A place saved from the map data gets its hours with: whilehere place refresh")
  }

  /// Two active tasks with one title are usually a slip; say so (the new one is kept).
  static func warnAboutTwins(of task: ReminderTask, _ context: CommandContext) {
    guard let twin = try? context.engine(part: true).tasks.twins(of: task).first else { return }
    context.output.err(
      "note: '\(CleanText.escaped(twin.title))' (\(twin.id)) was already on your list; both are kept. "
        + "Remove one with: whilehere task delete \(task.id)")
  }

  static func show(
    _ task: ReminderTask, _ context: CommandContext, heading: String? = nil, detailed: Bool = true, state: StoreState? = nil
  ) throws {
    let engine = try context.engine(part: state != nil)
    let view = TaskView(task, state: state ?? engine.context.store.state(), now: engine.context.clock.now(), timeZone: context.style.timeZone)
    if context.json { return context.printJSON(view) }
    if let heading { context.output.out(heading + ":") }
    view.lines(context.style, detailed: detailed).forEach(context.output.out)
  }

  /// Shows a task this command just wrote, its places read alone where
  /// the store can (`lookUp`): a write that read only its task stays quick.
  static func showWritten(_ task: ReminderTask, _ context: CommandContext, heading: String, detailed: Bool = true) throws {
    try show(task, context, heading: heading, detailed: detailed, state: try context.engine(part: true).tasks.lookUp(task.id.rawValue).state)
  }

  static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let name = arguments.value("state") ?? "all"
    // Listings print "completed"; accept what they print.
    guard let filter = TaskService.Filter(rawValue: name.lowercased() == "completed" ? "done" : name.lowercased()) else {
      throw UsageError("unknown state '\(name)'; states: all, active, snoozed, done (or completed)", commandPath: arguments.commandPath)
    }
    let engine = try context.engine(part: true)
    let now = engine.context.clock.now()
    if context.json {
      let (tasks, state) = try engine.tasks.listWithPlaces(filter)
      return context.printJSON(tasks.map { TaskView($0, state: state, now: now, timeZone: context.style.timeZone) })
    }
    // The text needs no notes, keywords or region ids: the store's listings hold the rest.
    let (table, order) = try engine.tasks.listingTable(filter)
    if order.isEmpty {
      // With a state asked for, "No tasks" would hide the others a person has.
      let others = filter == .all ? 0 : table.count
      if others > 0 {
        context.output.out("No \(filter == .done ? "completed" : filter.rawValue) tasks (\(others) other\(others == 1 ? "" : "s"): whilehere task list)")
      } else {
        context.output.out("No tasks. Add one: whilehere task add \"Buy milk\" --at 60.1699,24.9384")
      }
    }
    let style = context.style
    let parts = Parallel.map(order.count, minimumPerPart: 2_000) { range in
      Result { () throws -> [UInt8] in
        var text: [UInt8] = []
        text.reserveCapacity(range.count * 160)
        for at in order[range] { try table.view(at: at) { try $0.write(style, now: now, into: &text) } }
        return text
      }
    }
    for text in parts { context.output.out(text: try text.get()) }
  }

  static func show(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let found = try context.engine(part: true).tasks.lookUp(arguments.positionals[0])
    try show(found.task, context, state: found.state)
  }

  static func edit(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let changes = ["title", "notes", "keywords", "only-while-open", "any-time"]
    guard changes.contains(where: arguments.has) else {
      throw UsageError("nothing to change: give --title, --notes, --keywords, --only-while-open or --any-time", commandPath: arguments.commandPath)
    }
    if arguments.has("only-while-open") && arguments.has("any-time") {
      throw UsageError("--only-while-open and --any-time say opposite things: give one", commandPath: arguments.commandPath)
    }
    let onlyWhileOpen: Bool? = arguments.has("only-while-open") ? true : arguments.has("any-time") ? false : nil
    let task = try context.engine(part: true).tasks.edit(
      arguments.positionals[0], title: arguments.value("title"), notes: arguments.value("notes"),
      keywords: keywords(arguments.value("keywords")), onlyWhileOpen: onlyWhileOpen)
    try showWritten(task, context, heading: "Updated")
    if onlyWhileOpen == true { warnAboutHours(of: task, context) }
  }

  static func done(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let task = try context.engine(part: true).tasks.done(arguments.positionals[0])
    AnalyticsCommands.count(.answered(.done, via: .cli), context)
    try showWritten(
      task, context, heading: "Done — " + (task.locations.count == 1 ? "its place is silenced" : "all \(task.locations.count) places silenced"),
      detailed: false)
  }

  static func later(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let engine = try context.engine(part: true)
    let seconds = try arguments.value("for").map { try DurationText.parse($0) } ?? context.settings.reminders.laterDuration
    let task = try engine.tasks.later(arguments.positionals[0], for: seconds)
    AnalyticsCommands.count(.answered(.later, via: .cli), context)
    try showWritten(task, context, heading: "Snoozed for \(DurationText.format(seconds))", detailed: false)
  }

  static func wake(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    try showWritten(try context.engine(part: true).tasks.wake(arguments.positionals[0]), context, heading: "Awake — counting again", detailed: false)
  }

  static func reopen(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    try showWritten(try context.engine(part: true).tasks.reopen(arguments.positionals[0]), context, heading: "Reopened")
  }

  static func delete(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let task = try context.engine(part: true).tasks.delete(arguments.positionals[0])
    if context.json { return context.printJSON(["deleted": task.id.rawValue]) }
    context.output.out("Deleted task '\(task.title)' (\(task.id))")
  }

  static func addPlace(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let typed = try LocationArguments.specs(arguments)
    guard typed.count == 1 else {
      throw UsageError("give exactly one --at LAT,LON (or --at PLACE)", commandPath: arguments.commandPath)
    }
    _ = try context.engine(part: true).tasks.get(arguments.positionals[0])
    let specs = try LocationArguments.resolvingMapPlaces(typed, context)
    try showWritten(try context.engine(part: true).tasks.addLocation(arguments.positionals[0], specs[0]), context, heading: "Updated")
  }

  static func removePlace(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let task = try context.engine(part: true).tasks.removeLocation(arguments.positionals[0], location: arguments.positionals[1])
    try showWritten(task, context, heading: "Updated")
  }

  static func priority(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    guard let position = Int(arguments.positionals[2]) else {
      throw DomainError.invalidValue(field: "priority", value: arguments.positionals[2], allowed: "a whole number, 1 = first")
    }
    let task = try context.engine(part: true).tasks.reorder(arguments.positionals[0], location: arguments.positionals[1], priority: position)
    try showWritten(task, context, heading: "Updated")
  }

  static func move(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    guard let to = arguments.value("to") else {
      throw UsageError("give the new place with --to LAT,LON", commandPath: arguments.commandPath)
    }
    let task = try context.engine(part: true).tasks.move(
      arguments.positionals[0], location: arguments.positionals[1], to: try LocationArguments.point(to, context))
    try showWritten(task, context, heading: "Updated")
  }

  static func radius(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let meters = try LocationArguments.meters(arguments.positionals[2])
    let task = try context.engine(part: true).tasks.setRadius(arguments.positionals[0], location: arguments.positionals[1], meters: meters)
    try showWritten(task, context, heading: "Updated")
  }

  static func enable(_ arguments: ParsedArguments, _ context: CommandContext, _ enabled: Bool) throws {
    let task = try context.engine(part: true).tasks.setEnabled(arguments.positionals[0], location: arguments.positionals[1], enabled: enabled)
    try showWritten(task, context, heading: "Updated")
  }

  struct BadPick: Error {
    let text: String
  }

  /// "1,3", "1 3" or "1, 3": the numbers, each within 1...count.
  static func picks(_ text: String, of count: Int) -> Result<[Int], BadPick> {
    var numbers: [Int] = []
    for part in text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) {
      guard let number = Int(part), (1...count).contains(number) else { return .failure(BadPick(text: String(part))) }
      numbers.append(number)
    }
    return .success(numbers)
  }

  /// Asks until the answer is usable; Enter (or end of input) picks none.
  static func askForPicks(count: Int, _ context: CommandContext) -> [Int]? {
    var prompt = "Which? Numbers from 1 to \(count), e.g. 1,2 or 1 3; Enter for none"
    while true {
      context.output.out(prompt)
      guard let line = context.readLine(), !line.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
      switch picks(line, of: count) {
      case .success(let numbers): return numbers
      case .failure(let bad): prompt = "'\(bad.text)' is not one of the numbers 1 to \(count); which? (Enter for none)"
      }
    }
  }

  /// `task add --suggest`: suggestions near a point, the chosen ones saved as
  /// places (one pin per provider place) and tied to the new task in one go.
  static func addSuggested(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let title = try ReminderTask.validTitle(arguments.positionals[0])
    let found = try SuggestCommand.suggestions(title + " " + (arguments.value("keywords") ?? ""), arguments, context)
    guard !found.isEmpty else {
      throw DomainError.notFound(kind: "suggested place", reference: title)
    }
    let numbers: [Int]
    if let pick = arguments.value("pick") {
      switch Self.picks(pick, of: found.count) {
      case .success(let picked) where !picked.isEmpty: numbers = picked
      case .success: throw DomainError.invalidValue(field: "--pick", value: pick, allowed: "numbers from 1 to \(found.count)")
      case .failure(let problem): throw DomainError.invalidValue(field: "--pick", value: problem.text, allowed: "numbers from 1 to \(found.count)")
      }
    } else if context.output.isTerminal {
      SuggestCommand.print(try SuggestCommand.views(found, context), context)
      guard let picked = askForPicks(count: found.count, context) else {
        context.output.out("No place picked; nothing was added.")
        return
      }
      numbers = picked
    } else {
      // Not a terminal to ask at: say what there is to pick from.
      let listed = found.enumerated().map { "  \($0.offset + 1). \($0.element.place.name)  \(Formatting.meters($0.element.distance))" }
      throw UsageError(
        "give --pick N[,N…] to choose among the suggestions:\n" + listed.joined(separator: "\n"), commandPath: arguments.commandPath)
    }
    var chosen: [Suggester.Suggestion] = []
    for number in numbers where !chosen.contains(found[number - 1]) { chosen.append(found[number - 1]) }
    let radius = try arguments.value("radius").map { try LocationArguments.meters($0) }
    let engine = try context.engine()
    // Validate the radius before saving anything.
    if let radius { _ = try engine.context.radii.validate(radius) }
    let ids = try context.suggestions().save(chosen.map(\.place))
    let task = try engine.tasks.add(
      title: title, locations: ids.map { LocationSpec(target: .place($0.rawValue), radius: radius) },
      notes: arguments.value("notes") ?? "", keywords: keywords(arguments.value("keywords")) ?? [],
      onlyWhileOpen: arguments.has("only-while-open"))
    try show(task, context, heading: "Added")
    warnAboutHours(of: task, context)
    warnAboutTwins(of: task, context)
  }
}

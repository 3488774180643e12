import Analytics
import ArgumentParsing
import Composition
import Foundation

/// `whilehere analytics allow|deny|status`: the one switch for anonymous
/// usage counts. Both answers are one command; the first interactive run
/// asks once.
enum AnalyticsCommands {
  static var command: CommandSpec<CommandContext> {
    CommandSpec(
      "analytics", "Choose whether anonymous usage counts may be recorded",
      subcommands: [
        CommandSpec("allow", "Record usage counts (to the sinks in the config's analytics.sink)") { _, context in try set(.allowed, context) },
        CommandSpec("deny", "Record nothing") { _, context in try set(.denied, context) },
        CommandSpec("status", "Show the choice and where events would go", action: status),
      ],
      discussion: "Events hold only counts, durations, fixed reasons and the version: never places, names, coordinates or ids.")
  }

  static func set(_ choice: AnalyticsConsent, _ context: CommandContext) throws {
    try AnalyticsConsent.save(choice, context.environment)
    guard choice == .allowed else {
      context.output.out("Nothing will be recorded.")
      return
    }
    let sinks = try ConfigLoader.load(context.launchOptions).settings.analyticsSinks
    context.output.out(
      sinks.isEmpty
        ? "Allowed, but no analytics.sink is configured, so nothing is recorded or sent yet (Docs/Configuration.md)."
        : "Usage counts will be recorded to \(sinks.joined(separator: ", ")).")
  }

  static func status(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let choice = AnalyticsConsent.load(context.environment)
    let sinks = try ConfigLoader.load(context.launchOptions).settings.analyticsSinks
    let said: String
    switch choice {
    case .allowed: said = "allowed"
    case .denied: said = "denied"
    case .undecided: said = "not chosen yet (nothing is recorded)"
    }
    if context.json {
      context.printJSON(["choice": choice.rawValue, "sinks": sinks.joined(separator: ",")])
    } else {
      context.output.out("analytics \(said); sinks: \(sinks.isEmpty ? "none configured (analytics.sink)" : sinks.joined(separator: ", "))")
    }
  }

  /// Asked once, on the first run at a terminal, before anything is recorded.
  static func askOnce(_ context: CommandContext, command: String?) {
    guard command != "analytics", context.output.isTerminal, isatty(STDIN_FILENO) != 0,
      AnalyticsConsent.load(context.environment) == .undecided
    else { return }
    context.output.out(
      "WhileHere can record anonymous usage counts (commands run, reminders fired; never places, names, coordinates or ids) "
        + "for the collector you configure. Allow? [y/N] (change later: whilehere analytics allow|deny)")
    let answer = context.readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
    try? AnalyticsConsent.save(answer == "y" || answer == "yes" ? .allowed : .denied, context.environment)
  }

  /// Counts one event, if allowed (the sink's gate asks the consent).
  static func count(_ event: AnalyticsEvent, _ context: CommandContext) {
    guard let runtime = context.runtime, let sink = try? runtime.analytics(for: .cli) else { return }
    sink.record(event)
    sink.flush()
  }

  /// Counts one command, if allowed.
  static func record(_ context: CommandContext, command: String?, started: Date, succeeded: Bool) {
    guard let runtime = context.runtime, let sink = try? runtime.analytics(for: .cli) else { return }
    sink.record(.commandRun(Command(command), seconds: Date().timeIntervalSince(started), succeeded: succeeded))
    sink.flush()
    CrashReporter.sendPending(through: sink, allowed: AnalyticsConsent.load(context.environment) == .allowed, environment: context.environment)
  }
}

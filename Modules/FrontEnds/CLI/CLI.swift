import ArgumentParsing
import Composition
import Domain
import Analytics
import Foundation

/// The `whilehere` command line: parse, run one command, print, return the
/// exit code. Everything is injected so tests run it in-process.
public enum CLI {
  public static let version = "0.1.0"

  static let globalOptions: [OptionSpec] = [
    .flag("json", "print JSON instead of text"),
    .value("config", "FILE", "config file (default $XDG_CONFIG_HOME/whilehere/config.json)"),
    .value("profile", "NAME", "cli, headless or testing: which defaults to start from"),
    .value("store", "PROVIDER", "store provider, e.g. file:DIR or memory (overrides config)"),
    .value("server", "URL", "work on your store held by whilehered at URL (same as --store remote:URL)"),
    .flag("no-color", "never colour output (also when NO_COLOR is set)"),
  ]

  static var root: CommandSpec<CommandContext> {
    CommandSpec(
      "whilehere", "Reminders that fire when you arrive at one of a task's places.",
      subcommands: [
        TaskCommands.command, PlaceCommands.command, ListCommands.command, QueryCommands.search, SuggestCommand.command, ImportCommands.command,
        QueryCommands.check, UndoCommand.command, DoctorCommand.command, StoreCommands.command, UserCommands.command, DeviceCommands.command, ClusterCommands.command, SyncCommands.sync, SyncCommands.backup, ExchangeCommands.export, ForgetCommand.command, AnalyticsCommands.command,
        CommandSpec("version", "Print the version") { _, context in context.output.out("whilehere \(version)") },
      ],
      discussion: "Run 'whilehere COMMAND --help' for a command's options.")
  }

  /// For the real program (not in-process tests): a fatal signal leaves a
  /// crash report in the data directory (CrashReporter).
  public static func installCrashReporter(environment: [String: String]) {
    CrashReporter.install(program: .cli, version: Version(version), environment: environment)
  }

  /// `input` answers questions asked on a terminal (standard input when nil).
  public static func run(
    arguments: [String], environment: [String: String], output: any TextOutput, input: (@Sendable () -> String?)? = nil
  ) -> Int32 {
    let outcome: ArgumentParser.Outcome<CommandContext>
    do {
      outcome = try ArgumentParser.parse(arguments, root: root, globalOptions: globalOptions)
    } catch {
      return report(error, to: output)
    }
    switch outcome {
    case .help(let command, let path):
      output.out(HelpFormatter.render(command, path: path, globalOptions: globalOptions))
      return ExitCode.ok
    case .run(let command, let parsed):
      let context = CommandContext(output: output, environment: environment, arguments: parsed)
      if let input { context.readLine = input }
      defer { context.close() }
      let top = parsed.commandPath.dropFirst().first
      AnalyticsCommands.askOnce(context, command: top)
      CrashReporter.breadcrumb(Command(top))
      let started = Date()
      do {
        try command.action?(parsed, context)
        AnalyticsCommands.record(context, command: top, started: started, succeeded: true)
        return ExitCode.ok
      } catch let reported as ReportedError {
        AnalyticsCommands.record(context, command: top, started: started, succeeded: false)
        return ExitCode.of(reported.underlying)
      } catch {
        AnalyticsCommands.record(context, command: top, started: started, succeeded: false)
        return report(error, to: output)
      }
    }
  }

  /// One line naming what was wrong (and where to read usage), and the exit code.
  static func report(_ error: any Error, to output: any TextOutput) -> Int32 {
    if let usage = error as? UsageError {
      output.err("whilehere: \(usage.message)")
      output.err("Run '\(usage.commandPath.joined(separator: " ")) --help' for usage.")
      return ExitCode.usage
    }
    output.err("whilehere: \(error)")
    return ExitCode.of(error)
  }
}

import ArgumentParsing
import Composition
import Domain
import Engine
import Foundation
import Sync

/// `whilehere sync` and `whilehere backup …`: other replicas and archives,
/// merged so nothing deleted comes back and nothing newer is overwritten.
enum SyncCommands {
  static var sync: CommandSpec<CommandContext> {
    CommandSpec(
      "sync", "Send what this replica wrote and merge what the others wrote",
      options: [
        .value("via", "SPEC", repeatable: true, "folder:PATH or server:URL (default: the config's \"sync\")"),
        .flag("from-start", "send and read everything again (after a lost or damaged sync folder)"),
      ], action: runSync)
  }

  static var backup: CommandSpec<CommandContext> {
    CommandSpec(
      "backup", "Write or merge a checksummed archive of everything",
      subcommands: [
        CommandSpec("create", "Write every record to FILE (0600)", positionals: [("FILE", "the archive to write")], action: create),
        CommandSpec("restore", "Merge FILE; newer data here is kept", positionals: [("FILE", "an archive made by backup create")], action: restore),
      ])
  }

  static func runSync(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    _ = try context.engine()
    let runtime = context.runtime!
    let service = runtime.syncService()
    var reports: [SyncService.Report] = []
    for transport in try runtime.syncTransports(arguments.values("via")) {
      let started = Date()
      let report = try service.sync(with: transport, fromStart: arguments.has("from-start"))
      AnalyticsCommands.count(
        .syncFinished(sent: report.sent, received: report.received, applied: report.applied, seconds: Date().timeIntervalSince(started)), context)
      reports.append(report)
    }
    if context.json {
      context.printJSON(reports)
      return
    }
    for report in reports {
      context.output.out(
        "\(report.transport): sent \(report.sent), received \(report.received), applied \(report.applied)"
          + (report.settled > 0 ? ", \(report.settled) settled (a newer write of the same thing won)" : ""))
      for conflict in report.conflicts.prefix(5) { context.output.out("  kept the newer \(conflict)") }
      if report.settled > 5 { context.output.out("  … and \(report.settled - 5) more") }
      for warning in report.warnings { context.output.err("warning: \(warning)") }
    }
  }

  static func create(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let path = arguments.positional(0)!
    let data = try SyncService(context: try context.engine().context).backup()
    let temporary = path + ".tmp"
    guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]), rename(temporary, path) == 0 else {
      unlink(temporary)
      throw DomainError.invalidValue(field: "FILE", value: path, allowed: "a path that can be written")
    }
    let records = data.split(separator: 0x0A).count - 2
    context.output.out("Wrote \(records) records to \(path).")
  }

  static func restore(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let path = arguments.positional(0)!
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DomainError.notFound(kind: "archive", reference: path)
    }
    let report: SyncService.RestoreReport
    do {
      report = try SyncService(context: try context.engine().context).restore(data)
    } catch let error as SyncError {
      throw SyncError("\(path): \(error.reason); nothing was changed")
    }
    if context.json {
      context.printJSON(report)
    } else {
      context.output.out(
        "Merged \(path) (\(report.records) records from replica \(report.fromReplica)): \(report.applied) applied, \(report.kept) kept as they were (what is here is newer or the same).")
    }
  }
}

/// `--help` text for a command: usage, summary, subcommands, arguments, options.
public enum HelpFormatter {
  public static func render<Context>(_ command: CommandSpec<Context>, path: [String], globalOptions: [OptionSpec]) -> String {
    var lines: [String] = []
    var usage = "usage: " + path.joined(separator: " ")
    if !command.subcommands.isEmpty && command.action == nil {
      usage += " <command>"
    }
    for (index, positional) in command.positionals.enumerated() {
      let name = positional.name + (command.variadicTail && index == command.positionals.count - 1 ? "..." : "")
      usage += index < command.minimumPositionals ? " \(name)" : " [\(name)]"
    }
    if !command.options.isEmpty { usage += " [options]" }
    lines.append(usage)
    lines.append("")
    lines.append(command.summary)
    if !command.discussion.isEmpty {
      lines.append("")
      lines.append(command.discussion)
    }
    if !command.subcommands.isEmpty {
      lines.append("")
      lines.append("commands:")
      let width = command.subcommands.map(\.name.count).max() ?? 0
      for sub in command.subcommands {
        lines.append("  " + pad(sub.name, width) + "  " + sub.summary)
      }
    }
    if !command.positionals.isEmpty {
      lines.append("")
      lines.append("arguments:")
      let width = command.positionals.map(\.name.count).max() ?? 0
      for positional in command.positionals {
        lines.append("  " + pad(positional.name, width) + "  " + positional.help)
      }
    }
    for (title, options) in [("options:", command.options), ("global options:", globalOptions)] where !options.isEmpty {
      lines.append("")
      lines.append(title)
      let rendered = options.map { option -> (String, String) in
        var left = option.short.map { "-\($0), " } ?? ""
        left += "--\(option.name)"
        if case .value(let placeholder) = option.kind { left += " \(placeholder)" }
        return (left, option.help + (option.repeatable ? " (repeatable)" : ""))
      }
      let width = rendered.map(\.0.count).max() ?? 0
      for (left, help) in rendered { lines.append("  " + pad(left, width) + "  " + help) }
    }
    return lines.joined(separator: "\n")
  }

  public static func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
}

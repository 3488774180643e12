import ArgumentParsing
import Foundation
import FuzzBounds

/// A command line (arguments separated by NUL bytes) against a tree shaped
/// like whilehere's: a parse, a help request or a UsageError, never a crash.
let root = CommandSpec<Void>(
  "whilehere", "fuzz",
  subcommands: [
    CommandSpec(
      "task", "tasks",
      subcommands: [
        CommandSpec(
          "add", "add", positionals: [("TITLE", "title")],
          options: [
            .value("at", "LAT,LON", repeatable: true, "where"), .value("radius", "M", repeatable: true, "radius"),
            .flag("suggest", "suggest"), .value("pick", "N", "pick"),
          ], action: { _, _ in }),
        CommandSpec("list", "list", options: [.value("state", "S", "state")], action: { _, _ in }),
        CommandSpec("show", "show", positionals: [("TASK", "task")], action: { _, _ in }),
      ]),
    CommandSpec("undo", "undo", positionals: [("ID", "id")], required: 0, options: [.flag("list", "list")], action: { _, _ in }),
    CommandSpec("search", "search", positionals: [("WORDS", "words")], variadicTail: true, options: [.value("near", "P", "near")], action: { _, _ in }),
  ])

let globals: [OptionSpec] = [.flag("json", "json"), .value("store", "S", "store"), .flag("no-color", "colour")]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzArguments", count) }
  let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  let arguments = text.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
  if case .help(let command, let path)? = try? ArgumentParser.parse(arguments, root: root, globalOptions: globals) {
    _ = HelpFormatter.render(command, path: path, globalOptions: globals)
  }
  return 0
}

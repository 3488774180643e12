// whilehere-sim: the testing profile. Runs a scenario (the embedded Helsinki
// walk by default) against an in-memory store and a manual clock, and
// prints the timeline: arrivals, reminders with their buttons, answers.
import ArgumentParsing
import CLI
import Composition
import Foundation
import Simulation

let root = CommandSpec<Void>(
  "whilehere-sim", "Deterministic simulator: replays a scenario through the engine with a manual clock",
  subcommands: [
    CommandSpec(
      "run", "Run a scenario file, or the embedded Helsinki walk when none is given",
      positionals: [("SCENARIO", "a scenario JSON file (see Docs/Formats.md)")], required: 0,
      options: [.flag("json", "print one JSON object per event")],
      action: { arguments, _ in try SimulatorCommand.run(arguments) }),
    CommandSpec(
      "bench", "Benchmarks",
      subcommands: [
        CommandSpec(
          "match", "The spatial index alone on ../shared/bench/gen.py files; prints one JSON line",
          options: [
            .value("places", "FILE", "places.csv (id,lat,lon,radius_m)"), .value("fixes", "FILE", "fixes.csv (lat,lon)"),
            .value("cell", "DEGREES", "grid cell size (default 0.01)"),
          ],
          action: { arguments, _ in try BenchCommands.match(arguments) }),
        CommandSpec(
          "detection", "Runs every strategy on the same simulated trips; one row each",
          options: [
            .value("places", "N", "places (default 10000)"), .value("trips", "T", "whole person-days to simulate (default 20)"),
            .value("seed", "S", "seed (default 1)"), .flag("json", "one JSON object per strategy"),
            .value("plot", "FILE.svg", "also draw recall against battery per strategy"),
            .flag("explain", "also count why each engine row missed what it missed"),
            .value("world", "FILE", "world description overriding the calibrated defaults"),
            .value("engine", "FILE", "also run the shipped engine with this file's arrival keys (as in a config file's \"arrival\" object), as the row engine-HASH"),
            .value("roads", "FILE", "street GeoJSON (default ../shared/data/helsinki-roads.geojson if present)"),
            .value("pois", "FILE", "places GeoJSON (default ../shared/data/helsinki-pois.geojson if present)"),
            .value("strategies", "LIST", "comma-separated rows of os-nearest-20,bubble-19,seed,whilehere,whilehere-unconfirmed,whilehere-android,continuous-gps,owntracks-ios-http,owntracks-ios-mqtt,owntracks-android-http (the default: all of them) and, only when named, whilehere-clmonitor, whilehere-regions-kept, whilehere-mute-unwatched, whilehere-cell-wake, oracle-gps"),
          ],
          action: { arguments, _ in try BenchCommands.detection(arguments) }),
        CommandSpec(
          "matching", "Saved-list rows matched to places, scored against ../shared/data/takeout/truth.json",
          options: [
            .value("takeout", "DIR", "the takeout fixtures (default ../shared/data/takeout)"),
            .value("places", "PROVIDER", "place provider (default osm-geojson:../shared/data/helsinki-pois.geojson)"),
            .flag("verbose", "list every wrong and every missed row"),
          ],
          action: { arguments, _ in try BenchCommands.matching(arguments) }),
        CommandSpec(
          "suggestions", "Everyday task phrases at three central points: is the first suggestion a place that does the errand?",
          options: [.value("places", "PROVIDER", "place provider (default osm-geojson, the embedded central-Helsinki places)")],
          action: { arguments, _ in try BenchCommands.suggestions(arguments) }),
        CommandSpec(
          "places", "Suggestion latency and import matching speed against a large synthetic provider",
          options: [.value("places", "N", "provider places (default 100000)"), .value("rows", "N", "rows to import (default 10000)")],
          action: { arguments, _ in try BenchCommands.places(arguments) }),
      ]),
    CommandSpec(
      "replay", "A recorded track (JSON lines: t, lat, lon, acc) through the engine on the simulated phone, as a timeline",
      positionals: [("TRACE", "e.g. ../shared/data/traces/zurich-day.jsonl")],
      options: [
        .value("places", "FILE", "places to watch: GeoJSON points or CSV id,lat,lon,radius_m"),
        .value("tasks", "FILE", "tasks with several places each: [{\"title\", \"places\": [{\"name\", \"lat\", \"lon\", \"radius\"}]}]"),
        .value("task", "TITLE", "one task tied to every place (default: one task per place)"),
        .value("strategy", "NAME", "any bench detection row (default whilehere)"),
        .value("seed", "S", "seed of the simulated phone (default 1)"),
        .flag("json", "one line per fire: {\"task\", \"place\", \"t\"}"),
        .value("report", "FILE.html", "also write a self-contained page: the track, installed regions, sessions, fires and true inside intervals, with a time slider"),
        .value("radius", "METRES", "radius for GeoJSON places (default 150)"),
        .value("world", "FILE", "world description"),
        .value("engine", "FILE", "the shipped engine with this file's arrival keys (the default strategy when given)"),
      ],
      action: { arguments, _ in try ReplayCommand.run(arguments) }),
    CommandSpec("scenario", "Print the embedded scenario, as a starting point for your own") { _, _ in
      print(HelsinkiWalk.json)
    },
  ])

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty { arguments = ["run"] }
do {
  switch try ArgumentParser.parse(arguments, root: root) {
  case .help(let command, let path): print(HelpFormatter.render(command, path: path, globalOptions: []))
  case .run(let command, let parsed): try command.action?(parsed, ())
  }
} catch {
  FileHandle.standardError.write(Data("whilehere-sim: \(error)\n".utf8))
  exit(error is UsageError ? ExitCode.usage : error is ScenarioError ? ExitCode.invalidInput : ExitCode.failure)
}

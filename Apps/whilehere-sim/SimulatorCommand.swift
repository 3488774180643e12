import ArgumentParsing
import Composition
import Domain
import Engine
import Foundation
import Simulation

enum SimulatorCommand {
  static func run(_ arguments: ParsedArguments) throws {
    let scenario: Scenario
    if let path = arguments.positional(0) {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw ScenarioError(source: path, message: "cannot read the file")
      }
      scenario = try Scenario.decode(data, source: path)
    } else {
      scenario = HelsinkiWalk.scenario
    }
    let start = ISO8601DateFormatter().string(from: scenario.start)
    let runtime = try Runtime.boot(
      LaunchOptions(program: .testing, overrides: ["clock": "manual:" + start, "store": "memory"], environment: [:]))
    defer { runtime.shutdown() }
    guard let clock = runtime.clock as? ManualClock else { throw ScenarioError(source: "clock", message: "needs a manual clock") }
    let printer = TimelinePrinter(json: arguments.has("json"), scenario: scenario)
    try ScenarioRunner(scenario: scenario, engine: runtime.engine, clock: clock).run(printer.print)
  }
}

import ArgumentParsing
import Simulation

enum BenchCommands {
  static func match(_ arguments: ParsedArguments) throws {
    guard let places = arguments.value("places"), let fixes = arguments.value("fixes") else {
      throw UsageError("give --places FILE and --fixes FILE (make them with ../shared/bench/gen.py)", commandPath: arguments.commandPath)
    }
    let cell = try arguments.value("cell").map { text -> Double in
      guard let value = Double(text), value > 0, value <= 10 else {
        throw UsageError("--cell must be a size in degrees in (0, 10]", commandPath: arguments.commandPath)
      }
      return value
    }
    print(try MatchBenchmark.run(placesPath: places, fixesPath: fixes, cellDegrees: cell ?? MatchBenchmark.defaultCell).json)
  }
}

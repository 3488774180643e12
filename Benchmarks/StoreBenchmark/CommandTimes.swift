import Foundation

/// `--commands PATH`: wall time of everyday commands run as a person runs
/// them (the `whilehere` binary at PATH, a new process each time) on the
/// stores this run built, each five times, with `whilehere --help` (starts
/// and opens nothing) as the floor measured beside them.
enum CommandTimes {
  static func run(binary: String, stores: [(label: String, spec: String)], directory: String, into report: inout Report) throws {
    let home = directory + "/home"
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    // Nothing of the person running the benchmark is read or written.
    let environment = ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "XDG_STATE_HOME": home + "/state", "PATH": "/usr/bin:/bin"]
    let floor = try times(binary, ["--help"], environment)
    report.add("process start (whilehere --help)", floor.median * 1000, "ms", summary(floor))
    let commands: [(String, [String])] = [
      ("task list", ["task", "list"]), ("task show", ["task", "show", "t000001"]), ("place show", ["place", "show", "p0000001"]),
      ("check --at", ["check", "--at", "60.2,24.9"]),
    ]
    for (label, spec) in stores {
      for (name, arguments) in commands {
        let measured = try times(binary, ["--store", spec] + arguments, environment)
        report.add("\(label)\(name)", measured.median * 1000, "ms", summary(measured))
      }
    }
  }

  struct Times {
    let all: [Double]
    var median: Double { all.sorted()[all.count / 2] }
  }

  static func summary(_ times: Times) -> String {
    "median of 5 runs; min \(format(times.all.min()! * 1000)) max \(format(times.all.max()! * 1000)) ms"
  }

  /// Each run spawned with posix_spawn, output to /dev/null: Foundation's
  /// Process added some 50 ms a start here, more than the commands take.
  static func times(_ binary: String, _ arguments: [String], _ environment: [String: String]) throws -> Times {
    Times(
      all: try (0..<5).map { _ in
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let started = ContinuousClock.now
        guard posix_spawn(&pid, binary, &actions, nil, argv, envp) == 0 else {
          throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cannot start \(binary)"])
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let elapsed = ContinuousClock.now - started
        guard status == 0 else {
          throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "whilehere \(arguments.joined(separator: " ")) failed (status \(status))"])
        }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      })
  }
}

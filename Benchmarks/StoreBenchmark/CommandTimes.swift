import Foundation

/// `--commands PATH`: wall time of everyday commands run as a person runs
/// them (the `whilehere` binary at PATH, a new process each time) on the
/// stores this run built, each five times, with `whilehere --help` (starts
/// and opens nothing) as the floor measured beside them. With `--before
/// OLDER`, an older build runs each command too, alternating with PATH run
/// by run, so both meet the same machine.
enum CommandTimes {
  static func run(binary: String, before: String?, world: Workload, stores: [(label: String, spec: String)], directory: String, into report: inout Report) throws {
    let home = directory + "/home"
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    // Nothing of the person running the benchmark is read or written.
    let environment = ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "XDG_STATE_HOME": home + "/state", "PATH": "/usr/bin:/bin"]
    func measure(_ name: String, _ arguments: [String], status: Int32 = 0, then: [String]? = nil) throws {
      guard let before else {
        let measured = try times(binary, arguments, environment, status: status, then: then)
        return report.add(name, measured.median * 1000, "ms", summary(measured))
      }
      var (new, old) = (Times(all: []), Times(all: []))
      for _ in 0..<5 {
        old = Times(all: old.all + (try times(before, arguments, environment, runs: 1, status: status, then: then)).all)
        new = Times(all: new.all + (try times(binary, arguments, environment, runs: 1, status: status, then: then)).all)
      }
      report.add(name, new.median * 1000, "ms", summary(new) + "; before: median \(format(old.median * 1000)) ms, min \(format(old.all.min()! * 1000)) max \(format(old.all.max()! * 1000)) ms, ratio \(format(new.median / old.median))x")
    }
    try measure("process start (whilehere --help)", ["--help"])
    if let file = stores.first(where: { $0.spec.hasPrefix("file:") }) {
      try joined(binary: binary, before: before, source: String(file.spec.dropFirst(5)), directory: directory, environment: environment, into: &report)
    }
    // With the exit status each must end with.
    let commands: [(String, [String], Int32)] = [
      ("task list", ["task", "list"], 0), ("task show", ["task", "show", "t000001"], 0), ("place show", ["place", "show", "p0000001"], 0),
      // A task as a person names it: by its title.
      ("task show TITLE", ["task", "show", world.taskTitle(5000)], 0),
      // A place as a person names it, and a slip answered with the nearest name (not found: 66).
      ("place show NAME", ["place", "show", world.placeName(61277)], 0), ("place show NAME, a slip", ["place", "show", world.placeSlip(61277)], 66),
      ("check --at", ["check", "--at", "60.2,24.9"], 0),
      // A point named by a saved place: the place is read, not every place.
      ("check --at NAME", ["check", "--at", world.placeName(61277)], 0),
      // Suggestions from the map data around the first 50 saved places by name (no position given).
      ("suggest around saved places", ["suggest", "cafe"], 0),
      // Writes, each a durable append the next run repeats (a snooze pushed on, a tag already held).
      ("task later (a write)", ["task", "later", "t000002"], 0), ("place tag (a write)", ["place", "tag", "p0000007", "shop"], 0),
      // A new task at a place named by its name (one more task each run), and a place's note written again.
      ("task add at NAME (a write)", ["task", "add", "Buy stamps", "--at", world.placeName(61277)], 0),
      ("place edit (a write)", ["place", "edit", "p0000011", "--note", "by the door"], 0),
    ]
    // A place added to a list, taken out again untimed after each run.
    let listed = ["list", "add", "Groceries", "p0000013"]
    let unlisted = ["list", "remove", "Groceries", "p0000013"]
    for (label, spec) in stores {
      for (name, arguments, status) in commands {
        try measure("\(label)\(name)", ["--store", spec] + arguments, status: status)
      }
      _ = try spawn(binary, ["--store", spec, "list", "create", "Groceries"], environment, status: 0)
      for place in ["p0000021", "p0000022", "p0000023"] { _ = try spawn(binary, ["--store", spec, "list", "add", "Groceries", place], environment, status: 0) }
      try measure("\(label)list add (a write)", ["--store", spec] + listed, then: ["--store", spec] + unlisted)
      // A place no task uses, deleted by its name, then put back untimed by `undo`.
      _ = try spawn(binary, ["--store", spec, "place", "add", "Spare kiosk", "--at", "60.2,24.9"], environment, status: 0)
      try measure("\(label)place delete NAME (a write)", ["--store", spec, "place", "delete", "Spare kiosk"], then: ["--store", spec, "undo"])
      try measure("\(label)list show", ["--store", spec, "list", "show", "Groceries"])
      try measure("\(label)list all", ["--store", spec, "list", "all"])
      // Deleted with its places kept, then put back untimed by `undo`.
      try measure("\(label)list delete (a write)", ["--store", spec, "list", "delete", "Groceries", "--keep-places"], then: ["--store", spec, "undo"])
    }
  }

  /// A new machine joining: the `file:` store synced through a folder
  /// into an empty store by each binary (its own, so each leaves the
  /// store as it would), then everyday commands on it, alternating.
  static func joined(binary: String, before: String?, source: String, directory: String, environment: [String: String], into report: inout Report) throws {
    let folder = directory + "/joined-sync"
    _ = try spawn(binary, ["--store", "file:" + source, "sync", "--via", "folder:" + folder], environment, status: 0)
    var builds = [(label: "", binary: binary, store: directory + "/joined")]
    if let before { builds.append((label: "before", binary: before, store: directory + "/joined-before")) }
    for build in builds {
      let seconds = try spawn(build.binary, ["--store", "file:" + build.store, "sync", "--via", "folder:" + folder], environment, status: 0)
      report.add("joined by sync: the sync\(build.label.isEmpty ? "" : " (before)")", seconds, "s", "111,500 records into an empty store")
    }
    for (name, arguments) in [("place show", ["place", "show", "p0000001"]), ("task list", ["task", "list"]), ("check --at", ["check", "--at", "60.2,24.9"])] {
      var times = builds.map { _ in Times(all: []) }
      for _ in 0..<5 {
        for (index, build) in builds.enumerated().reversed() {
          times[index] = Times(all: times[index].all + (try Self.times(build.binary, ["--store", "file:" + build.store] + arguments, environment, runs: 1)).all)
        }
      }
      let old = times.count > 1 ? "; before: median \(format(times[1].median * 1000)) ms, min \(format(times[1].all.min()! * 1000)) max \(format(times[1].all.max()! * 1000)) ms, ratio \(format(times[0].median / times[1].median))x" : ""
      report.add("joined by sync: \(name)", times[0].median * 1000, "ms", summary(times[0]) + old)
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
  /// A run that does not exit with `expected` fails the benchmark. `then`,
  /// untimed after each run, puts back what the run changed.
  static func times(
    _ binary: String, _ arguments: [String], _ environment: [String: String], runs: Int = 5, status expected: Int32 = 0, then: [String]? = nil
  ) throws -> Times {
    Times(
      all: try (0..<runs).map { _ in
        let elapsed = try spawn(binary, arguments, environment, status: expected)
        if let then { _ = try spawn(binary, then, environment, status: 0) }
        return elapsed
      })
  }

  /// Seconds from spawning `binary` to its exit, which must be `expected`.
  static func spawn(_ binary: String, _ arguments: [String], _ environment: [String: String], status expected: Int32) throws -> Double {
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
    guard status == expected << 8 else {
      throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "whilehere \(arguments.joined(separator: " ")) failed (status \(status))"])
    }
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
}

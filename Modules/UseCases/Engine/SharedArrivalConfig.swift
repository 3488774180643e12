import Geofencing
import Locking

/// One copy of an engine's configuration, shared by every engine made with
/// an equal one while any of them lives. A daemon steps thousands of
/// engines with the same configuration in turn: each step reads some of
/// its fields, and one shared copy stays in the processor's caches where a
/// copy inside each person's state (half a kilobyte, eight cache lines)
/// would be fetched from memory at every person's step.
final class SharedArrivalConfig: Sendable {
  let value: ArrivalConfig
  /// Plans within the monitor's capacity (`CoverageConfig.osCapacity` at most it).
  let planner: CoveragePlanner

  private init(_ key: Key) {
    value = key.config
    var coverage = key.config.coverage
    coverage.osCapacity = min(coverage.osCapacity, key.capacity)
    planner = CoveragePlanner(config: coverage)
  }

  /// The copy for `config` on a monitor of `capacity` regions.
  static func of(_ config: ArrivalConfig, capacity: Int) -> SharedArrivalConfig {
    let key = Key(config: config, capacity: capacity)
    return table.withLock { table in
      if let shared = table.entries[key]?.shared { return shared }
      let shared = SharedArrivalConfig(key)
      // Held weakly, and the dead dropped as the table doubles: a program
      // that makes engines of many configurations (the simulator's
      // searches) keeps only those in use.
      if table.entries.count >= table.pruneAt {
        table.entries = table.entries.filter { $0.value.shared != nil }
        table.pruneAt = max(Table.minimumPruneAt, table.entries.count * 2)
      }
      table.entries[key] = Entry(shared: shared)
      return shared
    }
  }

  /// How many configurations the table holds, live or not yet dropped.
  static var held: Int { table.withLock { $0.entries.count } }

  private struct Key: Hashable {
    var config: ArrivalConfig
    var capacity: Int
  }

  private struct Entry {
    weak var shared: SharedArrivalConfig?
  }

  private struct Table {
    static let minimumPruneAt = 16
    var entries: [Key: Entry] = [:]
    var pruneAt = minimumPruneAt
  }

  private static let table = Locked(Table())
}

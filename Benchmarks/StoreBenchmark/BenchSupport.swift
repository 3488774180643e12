import FileStore
import Foundation

struct BenchOptions {
  var places = 100_000
  var tasks = 10_000
  var directory: String?
  /// When set, only the merge benchmark runs, with this many operations.
  var merge: Int?
  /// Also run the same workload on a `sqlite:` store, in the same run.
  var sqlite = false
  /// When set, only the `nats:` open benchmark runs, against these servers.
  var nats: String?
  /// Messages in each log of the `nats:` open benchmark.
  var messages = 5000
  /// A `whilehere` binary to time everyday commands with, on the stores built.
  var commands: String?
  /// An older `whilehere` run alternately with `commands`, as the baseline of the same run.
  var before: String?
  /// Names and titles beyond ASCII (`Workload.accented`).
  var accented = false

  init(_ arguments: ArraySlice<String>) {
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--places": places = Int(iterator.next() ?? "") ?? places
      case "--tasks": tasks = Int(iterator.next() ?? "") ?? tasks
      case "--dir": directory = iterator.next()
      case "--merge": merge = Int(iterator.next() ?? "") ?? 1_000_000
      case "--sqlite": sqlite = true
      case "--nats": nats = iterator.next()
      case "--messages": messages = Int(iterator.next() ?? "") ?? messages
      case "--commands": commands = iterator.next()
      case "--before": before = iterator.next()
      case "--accented": accented = true
      default:
        FileHandle.standardError.write(Data("usage: whilehere-bench [--places N] [--tasks N] [--dir DIR] [--sqlite] [--accented] [--commands PATH-TO-whilehere [--before OLDER-whilehere]] | --merge N | --nats URL [--messages N]\n".utf8))
        exit(64)
      }
    }
  }
}

struct Report {
  var rows: [(String, Double, String, String)] = []
  mutating func add(_ name: String, _ value: Double, _ unit: String, _ note: String) { rows.append((name, value, unit, note)) }

  func print() {
    Swift.print("")
    let width = rows.map(\.0.count).max() ?? 0
    for (name, value, unit, note) in rows {
      Swift.print(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + format(value).leftPad(10) + " " + unit.padding(toLength: 9, withPad: " ", startingAt: 0) + "  " + note)
    }
  }
}

extension String {
  func leftPad(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

func format(_ value: Double) -> String {
  value >= 100 ? String(Int(value.rounded())) : String(format: value >= 1 ? "%.2f" : "%.3f", value)
}

func measure(_ work: () -> Void) -> Double {
  let clock = ContinuousClock()
  let elapsed = clock.measure(work)
  return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// The best of several runs: the figure least disturbed by the machine.
func measureBest(_ runs: Int, _ work: () -> Void) -> Double {
  (0..<runs).map { _ in measure(work) }.min()!
}

func fileSize(_ path: String) -> Int {
  ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
}

/// The baseline an open is compared to: the file's bytes read and checksummed
/// with the store's own CRC, and nothing else.
func checksumFile(_ path: String) {
  guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("whilehere-bench: cannot read \(path)\n".utf8))
    exit(1)
  }
  blackHole(FileStoreChecksum.crc32(data))
}

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

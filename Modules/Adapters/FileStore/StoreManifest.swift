import Foundation
import Persistence

/// What a store directory should contain, so a missing or shortened part is
/// found on open instead of opening as a smaller, healthy-looking store.
/// Text, one part a line, replaced by atomic rename:
///
/// ```
/// whilehere-manifest 1
/// generation 3
/// snapshot snapshot-3 bytes=5120 crc=1a2b3c4d records=120 tasks=5 places=30 lists=2 latest=001733380000000-000000-a1b2
/// log log-3 bytes=4096 crc=99aa00ff records=37
/// ```
///
/// Each compaction writes a new generation's snapshot and log, then the
/// manifest naming them, then removes the old pair; a reader that opened
/// the old files keeps reading a consistent pair. The log line records the
/// bytes known durable when the manifest was last written; the log may have
/// grown since, never shrunk.
struct StoreManifest: Equatable {
  struct Part: Equatable {
    var file: String
    var bytes: Int
    var crc: UInt32
    var records: Int
    /// Counts of what the part held, for saying what was lost.
    var tasks = 0
    var places = 0
    var lists = 0
    /// The newest stamp among a snapshot's records (`latest=`; nil in a
    /// manifest from before it was written): what a writer that appends
    /// without reading the snapshot stamps after (`LazyFileStore`).
    var latest: HLCTimestamp? = nil
  }

  var generation: Int
  var snapshot: Part?
  var log: Part

  static let fileName = "manifest"
  static let magic = "whilehere-manifest 1"

  static func logName(_ generation: Int) -> String { generation == 0 ? "log" : "log-\(generation)" }
  static func snapshotName(_ generation: Int) -> String { generation == 0 ? "snapshot" : "snapshot-\(generation)" }

  func encoded() -> [UInt8] {
    var lines = [Self.magic, "generation \(generation)"]
    if let snapshot {
      lines.append(
        "snapshot \(snapshot.file) bytes=\(snapshot.bytes) crc=\(Self.hex(snapshot.crc)) records=\(snapshot.records) "
          + "tasks=\(snapshot.tasks) places=\(snapshot.places) lists=\(snapshot.lists)" + (snapshot.latest.map { " latest=\($0)" } ?? ""))
    } else {
      lines.append("snapshot none")
    }
    lines.append("log \(log.file) bytes=\(log.bytes) crc=\(Self.hex(log.crc)) records=\(log.records)")
    return Array((lines.joined(separator: "\n") + "\n").utf8)
  }

  static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }

  /// nil when there is no manifest; throws when there is one that cannot be read.
  static func read(directory: String) throws -> StoreManifest? {
    let path = directory + "/" + fileName
    guard let bytes = try PosixFile.readAll(path) else { return nil }
    func bad(_ reason: String) -> StoreError { .corrupt(path: path, offset: 0, reason: reason) }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    if let first = lines.first, first.hasPrefix("whilehere-manifest "), first != magic {
      throw StoreError.unsupportedVersion(path: path, found: Int(first.dropFirst("whilehere-manifest ".count)) ?? 0)
    }
    guard lines.first == magic else { throw bad("not a WhileHere manifest (first line is not '\(magic)')") }
    var generation: Int?
    var snapshot: Part??
    var log: Part?
    for line in lines.dropFirst() {
      let words = line.split(separator: " ").map(String.init)
      switch words.first {
      case "generation":
        guard words.count == 2, let value = Int(words[1]), value >= 0 else { throw bad("bad line '\(line)'") }
        generation = value
      case "snapshot":
        if words.count == 2, words[1] == "none" {
          snapshot = .some(nil)
        } else {
          guard let part = part(words) else { throw bad("bad line '\(line)'") }
          snapshot = .some(part)
        }
      case "log":
        guard let part = part(words) else { throw bad("bad line '\(line)'") }
        log = part
      default:
        throw bad("unknown line '\(line)'")
      }
    }
    guard let generation, let snapshot, let log else { throw bad("a generation, snapshot or log line is missing") }
    return StoreManifest(generation: generation, snapshot: snapshot, log: log)
  }

  private static func part(_ words: [String]) -> Part? {
    guard words.count >= 3, isOwnFileName(words[1]) else { return nil }
    var fields: [String: String] = [:]
    for word in words.dropFirst(2) {
      let pair = word.split(separator: "=", maxSplits: 1).map(String.init)
      guard pair.count == 2 else { return nil }
      fields[pair[0]] = pair[1]
    }
    guard let bytes = fields["bytes"].flatMap({ Int($0) }), bytes >= 0,
      let crc = fields["crc"].flatMap({ UInt32($0, radix: 16) }),
      let records = fields["records"].flatMap({ Int($0) }), records >= 0
    else { return nil }
    let latest = fields["latest"].map { HLCTimestamp(parsing: $0) }
    if case .some(.none) = latest { return nil }
    return Part(
      file: words[1], bytes: bytes, crc: crc, records: records, tasks: fields["tasks"].flatMap { Int($0) } ?? 0,
      places: fields["places"].flatMap { Int($0) } ?? 0, lists: fields["lists"].flatMap { Int($0) } ?? 0, latest: latest ?? nil)
  }

  /// A manifest never points outside the directory.
  static func isOwnFileName(_ name: String) -> Bool {
    name == "log" || name == "snapshot" || ["log-", "snapshot-", "keys-"].contains { prefix in
      name.hasPrefix(prefix) && Int(name.dropFirst(prefix.count)).map { $0 > 0 } == true
    }
  }

  func write(directory: String) throws {
    try StoreFiles.writeAtomically(encoded(), to: directory + "/" + Self.fileName, directory: directory)
  }

  /// Writes this manifest of a new generation, switching the store to it,
  /// and says whether the switch is certain. False: the rename went
  /// through but syncing the directory failed, so this manifest is what
  /// is read now while a crash could bring back the one before; its files
  /// and the old pair must both stay. Throws when it was not put in place
  /// (the old manifest is still the one read).
  func switchStore(directory: String) throws -> Bool {
    do {
      try write(directory: directory)
      return true
    } catch {
      guard let named = try? Self.read(directory: directory), named.generation == generation else { throw error }
      return false
    }
  }
}

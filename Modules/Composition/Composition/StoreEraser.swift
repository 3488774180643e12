import FileStore
import Foundation
import SQLiteStore

/// `whilehere forget`: removes a store's files, and only the files a
/// WhileHere store is made of, so a mistyped directory cannot lose anything
/// else. Call with the store closed.
public enum StoreEraser {
  public struct Result: Sendable, Equatable {
    /// Paths removed.
    public var removed: [String] = []
    /// Files that are not WhileHere's, left as they were.
    public var leftAlone: [String] = []
  }

  static let ownFiles: Set<String> = [
    "replica", "manifest", "LOCK", "notices", "notices.shown", "recovered", "daemon-status.json", "daemon-status.json.tmp",
    "server.key",
  ]

  /// Erases a `file:` or `sqlite:` store (and the per-person stores a
  /// daemon keeps with it); other stores have no files. Refuses a remote store.
  public static func erase(storeSpec: String, environment: [String: String]) throws -> Result {
    let spec = ProviderSpec(storeSpec)
    switch spec.name {
    case "file":
      guard let directory = spec.argument else { return Result() }
      return try erase(directory: XDG.expandTilde(directory, environment))
    case "sqlite":
      guard let path = spec.argument else { return Result() }
      return try eraseSQLite(path: XDG.expandTilde(path, environment))
    case "remote":
      throw ConfigError.invalidValue(
        source: "forget", key: "store", value: storeSpec,
        allowed: "a store on this machine; to forget what whilehered holds, run forget there (or remove the person's directory)")
    default:
      return Result()
    }
  }

  /// The database with SQLite's files beside it, a daemon's per-person
  /// databases and its side files in the same folder; nothing else there.
  static func eraseSQLite(path: String) throws -> Result {
    var result = Result()
    let manager = FileManager.default
    let home = SQLitePaths.home(of: path)
    var doomed = SQLitePaths.files(of: path) + ["daemon-status.json", "daemon-status.json.tmp", LocalDaemon.fileName, "server.key"].map { home + "/" + $0 }
    let people = home + "/people"
    for entry in (try? manager.contentsOfDirectory(atPath: people)) ?? [] where entry.hasSuffix(".sqlite") {
      doomed += SQLitePaths.files(of: people + "/" + entry)
    }
    for file in doomed where manager.fileExists(atPath: file) {
      try manager.removeItem(atPath: file)
      result.removed.append(file)
    }
    if (try? manager.contentsOfDirectory(atPath: people))?.isEmpty == true { try? manager.removeItem(atPath: people) }
    return result
  }

  static func erase(directory: String) throws -> Result {
    // Nobody writes while the files go (a CLI writer waits, then finds the store gone).
    try FileOperationStore.holdingWriterLock(directory: directory) { try eraseHoldingLock(directory: directory) }
  }

  private static func eraseHoldingLock(directory: String) throws -> Result {
    var result = Result()
    let manager = FileManager.default
    guard let entries = try? manager.contentsOfDirectory(atPath: directory) else { return result }
    for entry in entries.sorted() {
      let path = directory + "/" + entry
      if ownFiles.contains(entry) || FileOperationStore.isStoreFile(entry) || entry.hasSuffix(".tmp") {
        try manager.removeItem(atPath: path)
        result.removed.append(path)
      } else if entry == "people" {
        for person in (try? manager.contentsOfDirectory(atPath: path)) ?? [] {
          let inner = try erase(directory: path + "/" + person)
          result.removed += inner.removed
          result.leftAlone += inner.leftAlone
          try? manager.removeItem(atPath: path + "/" + person)
        }
        try? manager.removeItem(atPath: path)
      } else {
        result.leftAlone.append(path)
      }
    }
    if (try? manager.contentsOfDirectory(atPath: directory))?.isEmpty == true { try? manager.removeItem(atPath: directory) }
    return result
  }
}

import Foundation

/// Where a `sqlite:PATH` store's files are: the database, SQLite's own
/// files beside it, and a daemon's per-person databases.
public enum SQLitePaths {
  /// The folder holding the database (and a daemon's side files).
  public static func home(of path: String) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    return folder.isEmpty ? "." : folder
  }

  /// Person NAME's own database under a daemon whose store is `path`.
  public static func person(_ name: String, beside path: String) -> String {
    (home(of: path) as NSString).appendingPathComponent("people/\(name).sqlite")
  }

  /// The database and what SQLite keeps beside it (write-ahead log, shared memory, rollback journal).
  public static func files(of path: String) -> [String] { [path, path + "-wal", path + "-shm", path + "-journal"] }
}

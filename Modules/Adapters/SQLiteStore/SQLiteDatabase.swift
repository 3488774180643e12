import CSQLite
import Foundation

/// A thin, throwing handle on one SQLite connection: what the store needs
/// and nothing more. Not thread-safe; its owner serialises calls.
final class SQLiteDatabase {
  struct Failure: Error, CustomStringConvertible {
    let path: String
    let message: String
    var description: String { "SQLite store \(path): \(message)" }
  }

  let path: String
  private var handle: OpaquePointer?

  /// Opens (creating when asked) the database at `path`. A new file is
  /// created 0600 before SQLite opens it, so the log and its WAL, which
  /// SQLite creates with the database's own mode, are never readable by
  /// others.
  init(path: String, create: Bool) throws {
    self.path = path
    if create, !FileManager.default.fileExists(atPath: path) {
      let descriptor = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { throw Failure(path: path, message: "cannot create the file: \(String(cString: strerror(errno)))") }
      Glibc.close(descriptor)
    }
    // No mutex of SQLite's own around every call: the owner serialises
    // them (a step and two column reads a row each took and gave it back).
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0)
    let status = sqlite3_open_v2(path, &handle, flags, nil)
    guard status == SQLITE_OK else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      sqlite3_close_v2(handle)
      handle = nil
      throw Failure(path: path, message: message)
    }
    sqlite3_extended_result_codes(handle, 1)
  }

  deinit { close() }

  func close() {
    guard let handle else { return }
    sqlite3_close_v2(handle)
    self.handle = nil
  }

  /// Runs statements that return nothing (schema, pragmas, transactions).
  func execute(_ sql: String) throws {
    var error: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(try live(), sql, nil, nil, &error) == SQLITE_OK else {
      let message = error.map { String(cString: $0) } ?? lastError
      sqlite3_free(error)
      throw Failure(path: path, message: "\(message) (in \(sql.prefix(60)))")
    }
  }

  /// Prepares `sql`, binds `values` (Int64, Double, String, nil or Data, in order),
  /// and calls `row` for each result row.
  func query(_ sql: String, _ values: [any Sendable] = [], row: (Statement) throws -> Void = { _ in }) throws {
    try run(sql, each: [values], row: row)
  }

  /// Prepares `sql` once and runs it for each set of `values` (a batch of
  /// inserts without preparing each row's statement again).
  func run(_ sql: String, each rows: [[any Sendable]], row: (Statement) throws -> Void = { _ in }) throws {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(try live(), sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw Failure(path: path, message: "\(lastError) (in \(sql.prefix(60)))")
    }
    defer { sqlite3_finalize(statement) }
    for values in rows {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
      try bind(values, to: statement)
      while true {
        let status = sqlite3_step(statement)
        if status == SQLITE_DONE { break }
        guard status == SQLITE_ROW else { throw Failure(path: path, message: lastError) }
        try row(Statement(pointer: statement))
      }
    }
  }

  private func bind(_ values: [any Sendable], to statement: OpaquePointer) throws {
    for (index, value) in values.enumerated() {
      let position = Int32(index + 1)
      switch value {
      case let number as Int64: sqlite3_bind_int64(statement, position, number)
      case let number as Double: sqlite3_bind_double(statement, position, number)
      case is Null: sqlite3_bind_null(statement, position)
      case let text as String: sqlite3_bind_text(statement, position, text, -1, whilehere_sqlite_transient())
      case let data as Data:
        _ = data.withUnsafeBytes { bytes in
          sqlite3_bind_blob(statement, position, bytes.baseAddress, Int32(bytes.count), whilehere_sqlite_transient())
        }
      default: throw Failure(path: path, message: "cannot bind a \(type(of: value))")
      }
    }
  }

  /// SQL's NULL, as a value to bind.
  struct Null: Sendable {}

  /// One result row's columns.
  struct Statement {
    let pointer: OpaquePointer

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(pointer, column) }

    func real(_ column: Int32) -> Double { sqlite3_column_double(pointer, column) }

    func text(_ column: Int32) -> String? {
      guard let bytes = sqlite3_column_text(pointer, column) else { return nil }
      return String(cString: bytes)
    }

    /// A blob's bytes, valid only inside `body` (no copy).
    func withBytes<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
      let count = Int(sqlite3_column_bytes(pointer, column))
      return try body(UnsafeRawBufferPointer(start: count > 0 ? sqlite3_column_blob(pointer, column) : nil, count: count))
    }

    func data(_ column: Int32) -> Data {
      let count = Int(sqlite3_column_bytes(pointer, column))
      guard count > 0, let bytes = sqlite3_column_blob(pointer, column) else { return Data() }
      return Data(bytes: bytes, count: count)
    }
  }

  private func live() throws -> OpaquePointer {
    guard let handle else { throw Failure(path: path, message: "closed") }
    return handle
  }

  private var lastError: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed" }
}

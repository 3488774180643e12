import Foundation
import Persistence

/// The newest stamp the store holds and the last row it accounts for
/// (`meta.latest`, "SEQ STAMP"): what a writer that reads only the rows it
/// changes stamps after, so its stamps stay newer than every other. Every
/// write of this build records it; rows after SEQ (an older build wrote
/// them) are read for their stamps.
enum SQLiteLatest {
  static func read(_ database: SQLiteDatabase) throws -> (seq: Int64, stamp: HLCTimestamp)? {
    var text: String?
    try database.query("SELECT value FROM meta WHERE key = 'latest'") { row in text = row.text(0) }
    guard let parts = text?.split(separator: " ", maxSplits: 1), parts.count == 2, let seq = Int64(parts[0]),
      let stamp = HLCTimestamp(parsing: String(parts[1]))
    else { return nil }
    return (seq, stamp)
  }

  static func write(seq: Int64, stamp: HLCTimestamp?, database: SQLiteDatabase) throws {
    guard let stamp else { return }
    try database.query("INSERT OR REPLACE INTO meta(key, value) VALUES ('latest', ?)", ["\(seq) \(stamp)"])
  }

  /// The newest stamp of the rows after `seq` (none: nil).
  static func newest(after seq: Int64, database: SQLiteDatabase) throws -> HLCTimestamp? {
    var newest: HLCTimestamp?
    try database.query("SELECT stamp FROM records WHERE seq > ?", [seq]) { row in
      if let stamp = row.text(0).flatMap(HLCTimestamp.init(parsing:)), newest.map({ stamp > $0 }) ?? true { newest = stamp }
    }
    return newest
  }
}

import Foundation
import Persistence

/// The order `task list` prints listings in: oldest first, then by id as
/// strings compare. Sorted as plain numbers: a task's creation time and
/// its id's first 16 bytes packed big-endian, so that comparing them
/// compares the ids' bytes. Tasks made together (an import, a script)
/// share their time, and 10,000 ids made strings and compared as strings
/// took longer than the rest of the sort. An id those numbers do not
/// order exactly as a string (not ASCII, longer than 16 bytes, or holding
/// a NUL byte) is compared as a string.
struct ListingOrder {
  private struct Key {
    let time: Double
    let high: UInt64
    let low: UInt64
    /// Whether `high` and `low` order the id as a string does.
    let packed: Bool
    let at: Int
  }

  /// The positions in `table` of the listings `picks` keeps, in order.
  static func positions(in table: TaskListingTable, picking picks: (TaskListingView) -> Bool) throws -> [Int] {
    var keys: [Key] = []
    keys.reserveCapacity(table.count)
    // Ids compared as strings, made only for keys that are not packed.
    var strings: [Int: String] = [:]
    for at in 0..<table.count {
      try table.view(at: at) { view in
        guard picks(view) else { return }
        let (high, low, packed) = pack(view.id)
        keys.append(Key(time: view.createdAt.timeIntervalSinceReferenceDate, high: high, low: low, packed: packed, at: at))
        if !packed { strings[at] = String(decoding: view.id, as: UTF8.self) }
      }
    }
    func id(_ key: Key) -> String { strings[key.at] ?? unpack(key.high, key.low) }
    keys.sort { a, b in
      if a.time != b.time { return a.time < b.time }
      if a.packed && b.packed { return (a.high, a.low) < (b.high, b.low) }
      return id(a) < id(b)
    }
    return keys.map(\.at)
  }

  /// The id's bytes packed big-endian, zeros after it; whether they order
  /// it as a string: ASCII (whose strings compare byte by byte), at most 16
  /// bytes and no NUL, so a shorter id, padded with zeros, orders before
  /// one it begins.
  static func pack(_ id: UnsafeRawBufferPointer) -> (high: UInt64, low: UInt64, packed: Bool) {
    var (high, low): (UInt64, UInt64) = (0, 0)
    var packed = id.count <= 16
    for index in 0..<min(id.count, 16) {
      let byte = id[index]
      packed = packed && byte != 0 && byte < 0x80
      if index < 8 { high |= UInt64(byte) << (56 - 8 * index) } else { low |= UInt64(byte) << (56 - 8 * (index - 8)) }
    }
    return (high, low, packed)
  }

  /// The id `pack` packed (only asked of packed ones).
  static func unpack(_ high: UInt64, _ low: UInt64) -> String {
    var bytes: [UInt8] = []
    for word in [high, low] {
      for shift in stride(from: 56, through: 0, by: -8) where UInt8(truncatingIfNeeded: word >> UInt64(shift)) != 0 {
        bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// An open-addressing hash table from grid cell keys to slots in a list
/// array. Swift's Dictionary hashes with SipHash, which dominated lookups;
/// cell keys are plain integers, so a multiplicative hash is enough.
struct CellTable: Sendable {
  private static let empty = Int64.min
  private var keys: [Int64]
  private var values: [Int32]
  private var mask: Int
  private(set) var count = 0

  init(capacity: Int = 16) {
    let size = Self.buckets(for: capacity)
    keys = [Int64](repeating: Self.empty, count: size)
    values = [Int32](repeating: 0, count: size)
    mask = size - 1
  }

  /// A power of two at least twice `capacity` (at most half full), and at least 16.
  static func buckets(for capacity: Int) -> Int {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    return size
  }

  @inline(__always)
  private func home(_ key: Int64) -> Int {
    Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
  }

  @inline(__always)
  func find(_ key: Int64) -> Int32? {
    var i = home(key)
    while true {
      let stored = keys[i]
      if stored == key { return values[i] }
      if stored == Self.empty { return nil }
      i = (i + 1) & mask
    }
  }

  /// The value under `key`, inserting `make()` first when absent.
  mutating func findOrInsert(_ key: Int64, _ make: () -> Int32) -> Int32 {
    if (count + 1) * 2 > keys.count { grow() }
    var i = home(key)
    while true {
      let stored = keys[i]
      if stored == key { return values[i] }
      if stored == Self.empty {
        let value = make()
        keys[i] = key
        values[i] = value
        count += 1
        return value
      }
      i = (i + 1) & mask
    }
  }

  mutating func reserveCapacity(_ capacity: Int) {
    if capacity * 2 > keys.count { rehash(to: capacity) }
  }

  private mutating func grow() { rehash(to: keys.count) }

  private mutating func rehash(to capacity: Int) {
    let oldKeys = keys
    let oldValues = values
    self = CellTable(capacity: capacity)
    for (key, value) in zip(oldKeys, oldValues) where key != Self.empty {
      _ = findOrInsert(key) { value }
    }
  }
}

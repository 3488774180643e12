/// An open-addressing hash table from caller keys to circle slots, for
/// `CircleIndex`. Swift's Dictionary hashes with SipHash, which was a
/// tenth of loading a million circles; keys are plain integers, so a
/// multiplicative hash is enough. Removal shifts later entries back, so
/// no tombstones accumulate under incremental use.
struct KeyTable: Sendable {
  private var keys: [Int]
  /// The slot plus one; zero marks an empty bucket (any `Int` is a valid key).
  private var values: [Int32]
  private var mask: Int
  private(set) var count = 0

  init(capacity: Int = 16) {
    let size = CellTable.buckets(for: capacity)
    keys = [Int](repeating: 0, count: size)
    values = [Int32](repeating: 0, count: size)
    mask = size - 1
  }

  var isEmpty: Bool { count == 0 }

  @inline(__always)
  private func home(_ key: Int) -> Int {
    Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
  }

  func find(_ key: Int) -> Int32? {
    var i = home(key)
    while values[i] != 0 {
      if keys[i] == key { return values[i] - 1 }
      i = (i + 1) & mask
    }
    return nil
  }

  /// Sets `key` to `slot`; returns the slot it had, if any.
  @discardableResult
  mutating func set(_ key: Int, _ slot: Int32) -> Int32? {
    if (count + 1) * 2 > keys.count { rehash(to: keys.count) }
    var i = home(key)
    while values[i] != 0 {
      if keys[i] == key {
        let old = values[i] - 1
        values[i] = slot + 1
        return old
      }
      i = (i + 1) & mask
    }
    keys[i] = key
    values[i] = slot + 1
    count += 1
    return nil
  }

  /// Removes `key`; returns its slot, if it had one.
  @discardableResult
  mutating func remove(_ key: Int) -> Int32? {
    var i = home(key)
    while values[i] != 0, keys[i] != key { i = (i + 1) & mask }
    guard values[i] != 0 else { return nil }
    let removed = values[i] - 1
    // Backward shift: move later entries of the run into the hole when
    // their home is not between the hole and where they sit.
    var hole = i
    var j = (i + 1) & mask
    while values[j] != 0 {
      let want = home(keys[j])
      let fromHole = (j - hole) & mask
      let fromHome = (j - want) & mask
      if fromHome >= fromHole {
        keys[hole] = keys[j]
        values[hole] = values[j]
        hole = j
      }
      j = (j + 1) & mask
    }
    values[hole] = 0
    count -= 1
    return removed
  }

  mutating func reserveCapacity(_ capacity: Int) {
    if capacity * 2 > keys.count { rehash(to: capacity) }
  }

  private mutating func rehash(to capacity: Int) {
    let oldKeys = keys
    let oldValues = values
    self = KeyTable(capacity: capacity)
    for (key, value) in zip(oldKeys, oldValues) where value != 0 { set(key, value - 1) }
  }
}

/// An open-addressing hash table from grid cell keys to slots in a list
/// array. Swift's Dictionary hashes with SipHash, which dominated lookups;
/// cell keys are plain integers, so a multiplicative hash is enough. A
/// key and its value share a bucket, so a lookup or an insert touches one
/// cache line where two arrays cost two misses (a million cells filed at
/// a bulk load, one lookup per query).
struct CellTable: Sendable {
  private static let empty = Int64.min
  private struct Bucket {
    var key: Int64
    var value: Int32
  }
  private var buckets: [Bucket]
  private var mask: Int
  private(set) var count = 0

  init(capacity: Int = 16) {
    let size = Self.buckets(for: capacity)
    buckets = [Bucket](repeating: Bucket(key: Self.empty, value: 0), count: size)
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
    buckets.withUnsafeBufferPointer { buckets in
      var i = home(key)
      while true {
        let bucket = buckets[i]
        if bucket.key == key { return bucket.value }
        if bucket.key == Self.empty { return nil }
        i = (i + 1) & mask
      }
    }
  }

  /// The value under `key`, inserting `make()` first when absent.
  mutating func findOrInsert(_ key: Int64, _ make: () -> Int32) -> Int32 {
    if (count + 1) * 2 > buckets.count { grow() }
    var i = home(key)
    while true {
      let stored = buckets[i].key
      if stored == key { return buckets[i].value }
      if stored == Self.empty {
        let value = make()
        buckets[i] = Bucket(key: key, value: value)
        count += 1
        return value
      }
      i = (i + 1) & mask
    }
  }

  mutating func reserveCapacity(_ capacity: Int) {
    if capacity * 2 > buckets.count { rehash(to: capacity) }
  }

  private mutating func grow() { rehash(to: buckets.count) }

  private mutating func rehash(to capacity: Int) {
    let old = buckets
    self = CellTable(capacity: capacity)
    for bucket in old where bucket.key != Self.empty {
      _ = findOrInsert(bucket.key) { bucket.value }
    }
  }
}

/// Sorts unsigned integers by their bits `low..<high`, least significant
/// digit first, every pass stable, so values equal in those bits keep the
/// order they came in: for the millions of packed (cell, slot) pairs a bulk
/// load groups by cell, several times faster than a comparison sort.
enum RadixSort {
  static func sort(_ values: inout [UInt64], bits high: Int, from low: Int = 0) {
    let bits = high - low
    guard values.count > 1, bits > 0 else { return }
    // Digits of at most 13 bits: the counts stay in the fastest caches.
    let passes = (bits + 12) / 13
    let digit = (bits + passes - 1) / passes
    let buckets = 1 << digit
    var source = values
    var target = [UInt64](repeating: 0, count: values.count)
    var shift = low
    while shift < high {
      var counts = [Int](repeating: 0, count: buckets)
      let mask = UInt64(buckets - 1)
      source.withUnsafeBufferPointer { from in
        for value in from { counts[Int((value >> UInt64(shift)) & mask)] += 1 }
      }
      var running = 0
      for bucket in 0..<buckets {
        let count = counts[bucket]
        counts[bucket] = running
        running += count
      }
      source.withUnsafeBufferPointer { from in
        target.withUnsafeMutableBufferPointer { to in
          for value in from {
            let bucket = Int((value >> UInt64(shift)) & mask)
            to[counts[bucket]] = value
            counts[bucket] += 1
          }
        }
      }
      swap(&source, &target)
      shift += digit
    }
    values = source
  }

  /// How many bits `value` needs.
  static func width(_ value: Int) -> Int { value <= 0 ? 0 : Int.bitWidth - value.leadingZeroBitCount }
}

/// The cells a bulk load filed, in (row, column) order: each row's columns
/// sorted, found by binary search. Built in one pass over cells already
/// sorted, where a hash table took a cache miss for each of a million
/// inserts; a lookup reads one small row (a few hundred columns) instead
/// of one random bucket. A cell's list index is its position here.
struct CellDirectory: Sendable {
  private var firstRow: Int64 = 0
  /// Row r's columns are `columns[rowStart[r - firstRow]..<rowStart[r - firstRow + 1]]`.
  private var rowStart: [Int32] = []
  private var columns: [Int32] = []

  init() {}

  var count: Int { columns.count }

  /// Room for this many cells.
  mutating func reserveCapacity(_ count: Int) { columns.reserveCapacity(count) }

  /// Adds the next cell: after every cell added before it in (row, column) order.
  mutating func append(row: Int64, column: Int64) {
    if rowStart.isEmpty {
      firstRow = row
      rowStart.append(0)
    }
    // Rows with no cells get empty ranges; `rowStart` ends one past the last row so far.
    while firstRow + Int64(rowStart.count) <= row + 1 { rowStart.append(Int32(columns.count)) }
    columns.append(Int32(column))
    rowStart[rowStart.count - 1] = Int32(columns.count)
  }

  @inline(__always)
  func find(row: Int64, column: Int64) -> Int32? {
    let r = row - firstRow
    guard r >= 0, r + 1 < Int64(rowStart.count) else { return nil }
    return rowStart.withUnsafeBufferPointer { starts in
      columns.withUnsafeBufferPointer { columns in
        let end = Int(starts[Int(r) + 1])
        var low = Int(starts[Int(r)])
        var high = end
        let wanted = Int32(truncatingIfNeeded: column)
        while low < high {
          let middle = (low + high) >> 1
          if columns[middle] < wanted { low = middle + 1 } else { high = middle }
        }
        return low < end && columns[low] == wanted ? Int32(low) : nil
      }
    }
  }
}

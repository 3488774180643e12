/// The cells a bulk load filed, in (row, column) order: each row's columns
/// sorted. Built in one pass over cells already sorted, where a hash table
/// took a cache miss for each of a million inserts. A cell's list index is
/// its position here.
///
/// Once sealed, a row whose cells are dense enough is also a bitmap of its
/// columns in blocks of 64, each block with the position of its first cell:
/// a lookup reads one block (a bit and a population count) where a binary
/// search over a row of a thousand columns waited on one miss after
/// another (a third of a query's time on places spread evenly, perf). Rows
/// whose blocks would outnumber half their cells keep the binary search:
/// few cells, a short search, and no room spent on empty blocks.
struct CellDirectory: Sendable {
  private var firstRow: Int64 = 0
  /// Row r's columns are `columns[rowStart[r - firstRow]..<rowStart[r - firstRow + 1]]`.
  private var rowStart: [Int32] = []
  private var columns: [Int32] = []
  /// Per row, once sealed: where its blocks start in `blocks` (−1: the
  /// row is searched), the block of its first column, and how many.
  private var rowBlocks: [RowBlocks] = []
  private var blocks: [Block] = []

  struct RowBlocks {
    var start: Int32
    var first: Int32
    var count: Int32
  }

  struct Block {
    /// Bit b: column 64 × block + b has a cell.
    var bits: UInt64
    /// The position of the block's first cell among all cells.
    var rank: Int32
  }

  init() {}

  var count: Int { columns.count }

  /// Room for this many cells.
  mutating func reserveCapacity(_ count: Int) { columns.reserveCapacity(count) }

  /// Adds the next cell: after every cell added before it in (row, column) order.
  mutating func append(row: Int64, column: Int64) {
    precondition(rowBlocks.isEmpty, "a sealed directory takes no more cells")
    if rowStart.isEmpty {
      firstRow = row
      rowStart.append(0)
    }
    // Rows with no cells get empty ranges; `rowStart` ends one past the last row so far.
    while firstRow + Int64(rowStart.count) <= row + 1 { rowStart.append(Int32(columns.count)) }
    columns.append(Int32(column))
    rowStart[rowStart.count - 1] = Int32(columns.count)
  }

  /// Makes the bitmaps of the rows dense enough for them.
  mutating func seal() {
    guard rowBlocks.isEmpty, rowStart.count > 1 else { return }
    rowBlocks.reserveCapacity(rowStart.count - 1)
    for row in 0..<(rowStart.count - 1) {
      let (from, to) = (Int(rowStart[row]), Int(rowStart[row + 1]))
      guard from < to else {
        rowBlocks.append(RowBlocks(start: -1, first: 0, count: 0))
        continue
      }
      let first = columns[from] >> 6
      let span = Int(columns[to - 1] >> 6 - first) + 1
      guard 2 * span <= to - from, blocks.count + span <= Int(Int32.max) else {
        rowBlocks.append(RowBlocks(start: -1, first: 0, count: 0))
        continue
      }
      let start = blocks.count
      blocks.append(contentsOf: repeatElement(Block(bits: 0, rank: 0), count: span))
      var position = to
      // Backwards, so each block's rank ends as its lowest cell's position.
      while position > from {
        position -= 1
        let column = columns[position]
        let at = start + Int(column >> 6 - first)
        blocks[at].bits |= 1 << UInt64(column & 63)
        blocks[at].rank = Int32(position)
      }
      rowBlocks.append(RowBlocks(start: Int32(start), first: first, count: Int32(span)))
    }
  }

  @inline(__always)
  func find(row: Int64, column: Int64) -> Int32? {
    let r = row - firstRow
    guard r >= 0, r + 1 < Int64(rowStart.count) else { return nil }
    if Int(r) < rowBlocks.count {
      let header = rowBlocks[Int(r)]
      if header.start >= 0 {
        let block = column >> 6 - Int64(header.first)
        guard block >= 0, block < Int64(header.count) else { return nil }
        let found = blocks[Int(header.start) + Int(block)]
        let below = found.bits & ((1 << UInt64(column & 63)) &- 1)
        guard found.bits >> UInt64(column & 63) & 1 == 1 else { return nil }
        return found.rank + Int32(below.nonzeroBitCount)
      }
    }
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

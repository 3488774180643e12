/// Grid cells → the circle slots filed under each, for `CircleIndex`
/// (once for the cells circles touch, once for the cells their centres lie
/// in). A bulk load into an empty grid lays every cell's slots out as one
/// run of a flat array, its cells in a sorted directory built in one pass
/// (a million small arrays, or a million random hash inserts, cost more
/// than the load's own work); cells and slots filed later go to a hash
/// table and to each list's own array (made only for lists that get one).
struct SlotGrid: Sendable {
  private var directory = CellDirectory()
  private var table = CellTable()
  /// List i's laid-out run is `base[runs[i].start ..< runs[i].start + runs[i].count]`.
  private var base: [Int32] = []
  /// Start and count side by side: a query reads one line for both, where
  /// two arrays cost two misses.
  private var runs: [Run] = []
  /// List i's slots filed after the layout; shorter than the lists when the last have none.
  private var later: [[Int32]] = []

  /// A cell key is row × this + column (columns are fewer).
  static let rowFactor: Int64 = 1_000_000_000

  /// Room for this many cells filed one by one.
  mutating func reserveCapacity(_ cells: Int) { table.reserveCapacity(cells) }

  /// The list of `cell`, if it has one.
  @inline(__always)
  func find(_ cell: Int64) -> Int32? {
    if let listed = directory.find(row: cell / Self.rowFactor, column: cell % Self.rowFactor) { return listed }
    return table.count == 0 ? nil : table.find(cell)
  }

  /// The list of `cell`, made when it has none yet.
  mutating func list(_ cell: Int64) -> Int32 {
    if let listed = directory.find(row: cell / Self.rowFactor, column: cell % Self.rowFactor) { return listed }
    return table.findOrInsert(cell) {
      runs.append(Run(start: 0, count: 0))
      return Int32(runs.count - 1)
    }
  }

  /// Files `slot` in `list`'s own array.
  mutating func append(_ slot: Int32, to list: Int32) {
    let at = Int(list)
    if later.count <= at { later.append(contentsOf: repeatElement([], count: at + 1 - later.count)) }
    later[at].append(slot)
  }

  /// Files many, each list's array grown once to its final size.
  mutating func append(_ filed: [(list: Int32, slot: Int32)]) {
    if later.count < runs.count { later.append(contentsOf: repeatElement([], count: runs.count - later.count)) }
    var added = [Int](repeating: 0, count: later.count)
    for item in filed { added[Int(item.list)] += 1 }
    for (list, extra) in added.enumerated() where extra > 0 { later[list].reserveCapacity(later[list].count + extra) }
    for item in filed { later[Int(item.list)].append(item.slot) }
  }

  /// Takes `slot` out of `cell`'s list; in the laid-out run the run's last slot takes its place.
  mutating func remove(_ slot: Int32, from cell: Int64) {
    guard let list = find(cell).map(Int.init) else { return }
    if list < later.count { later[list].removeAll { $0 == slot } }
    let first = Int(runs[list].start)
    let end = first + Int(runs[list].count)
    if let at = (first..<end).first(where: { base[$0] == slot }) {
      base[at] = base[end - 1]
      runs[list].count -= 1
    }
  }

  /// `body` with the list's slots, in one or two pieces.
  @inline(__always)
  func withSlots(of list: Int32, _ body: (UnsafeBufferPointer<Int32>) -> Void) {
    let l = Int(list)
    let run = runs[l]
    let first = Int(run.start)
    base.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[first..<first + Int(run.count)])) }
    if l < later.count { later[l].withUnsafeBufferPointer(body) }
  }

  /// A bulk layout into an empty grid: `slots` in cell order; then each
  /// cell's run, in that order, by `addRun`.
  mutating func lay(_ slots: [Int32], cells: Int) {
    precondition(runs.isEmpty && table.count == 0, "a bulk layout is for an empty grid")
    precondition(slots.count <= Int(UInt32.max), "a bulk layout holds at most 2³² − 1 slots")
    base = slots
    directory.reserveCapacity(cells)
    runs.reserveCapacity(cells)
  }

  /// The next cell of a layout: its slots are the laid-out ones after the
  /// previous cell's, up to `end`.
  mutating func addRun(row: Int64, column: Int64, end: Int) {
    let first = runs.last.map { Int($0.start) + Int($0.count) } ?? 0
    directory.append(row: row, column: column)
    runs.append(Run(start: UInt32(first), count: UInt32(end - first)))
  }

  /// Ends a bulk layout: the directory makes its quick lookups.
  mutating func seal() { directory.seal() }

  struct Run {
    var start: UInt32
    var count: UInt32
  }
}

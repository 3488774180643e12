import Foundation

extension CircleIndex {
  /// One circle to file.
  public struct Circle: Sendable {
    public let key: Int
    public let latitude: Double
    public let longitude: Double
    public let radius: Double

    public init(key: Int, latitude: Double, longitude: Double, radius: Double) {
      self.key = key
      self.latitude = latitude
      self.longitude = longitude
      self.radius = radius
    }
  }

  /// Files many circles at once, as `insert` would one by one (a key
  /// already held is replaced, and of a key given twice the last wins).
  /// Into an empty index every list is laid out in one flat array; into
  /// one that holds circles, each list grows once to its final size.
  public mutating func insert(contentsOf given: [Circle]) {
    guard keys.isEmpty, given.count < Int32.max, packedBits(given.count) <= 64 else { return append(given) }
    let circles = Self.lastOfEachKey(given)
    fill(circles, order: centreOrder(circles))
    layOut()
  }

  /// The bits a packed (row, column, slot) takes for this many circles.
  func packedBits(_ count: Int) -> Int {
    RadixSort.width(Int(latIndex(90))) + RadixSort.width(Int(lonCells - 1)) + RadixSort.width(count)
  }

  /// The positions of `circles` in the order of their centre cells:
  /// neighbours get slots next to each other and land in the same lists
  /// one after the other, which the cache rewards when matching.
  func centreOrder(_ circles: [Circle]) -> [Int] {
    let rowBits = RadixSort.width(Int(latIndex(90)))
    let columnBits = RadixSort.width(Int(lonCells - 1))
    let indexBits = RadixSort.width(circles.count)
    guard rowBits + columnBits + indexBits <= 64 else {
      let cells = circles.map { cellKey(latitude: $0.latitude, longitude: $0.longitude) }
      return circles.indices.sorted { cells[$0] < cells[$1] }
    }
    // Packed (row, column, position): one integer sort, no comparator calls.
    var packed = circles.enumerated().map { position, circle -> UInt64 in
      let cell = UInt64(latIndex(circle.latitude)) << columnBits | UInt64(lonIndex(circle.longitude))
      return cell << indexBits | UInt64(position)
    }
    // By cell only: the sort is stable, so a cell's circles keep their order.
    RadixSort.sort(&packed, bits: rowBits + columnBits + indexBits, from: indexBits)
    let mask = (UInt64(1) << indexBits) - 1
    return packed.map { Int($0 & mask) }
  }

  /// Files every slot of a freshly filled index (slots in centre-cell
  /// order): each cell's circles as one run of the grid's laid-out slots,
  /// and each centre cell's likewise. Every (cell, slot) pair is made,
  /// sorted by cell and written out in order, so each cell is filed once
  /// instead of once per circle touching it.
  mutating func layOut() {
    let n = keys.count
    let rowBits = RadixSort.width(Int(latIndex(90)))
    let columnBits = RadixSort.width(Int(lonCells - 1))
    let slotBits = RadixSort.width(n)
    var pairs: [UInt64] = []
    pairs.reserveCapacity(n * 4)
    var centred: [Int32] = []
    centred.reserveCapacity(n)
    for slot in 0..<n {
      let (latitude, longitude) = degrees[slot]
      guard let span = cellSpan(latitude: latitude, longitude: longitude, radius: radius[slot]) else {
        appendPolar(Int32(slot))
        continue
      }
      for row in span.lats {
        for column in span.lons {
          let wrapped = column < 0 ? column + lonCells : column >= lonCells ? column - lonCells : column
          pairs.append((UInt64(row) << columnBits | UInt64(wrapped)) << slotBits | UInt64(slot))
        }
      }
      centred.append(Int32(slot))
    }
    // By cell only: pairs were made in slot order, and the sort is stable.
    RadixSort.sort(&pairs, bits: rowBits + columnBits + slotBits, from: slotBits)
    var distinct = pairs.isEmpty ? 0 : 1
    for at in pairs.indices.dropFirst() where pairs[at] >> slotBits != pairs[at - 1] >> slotBits { distinct += 1 }
    let slotMask = (UInt64(1) << slotBits) - 1
    let columnMask = (UInt64(1) << columnBits) - 1
    cells.lay(pairs.map { Int32(truncatingIfNeeded: $0 & slotMask) }, cells: distinct)
    var at = 0
    while at < pairs.count {
      let packedCell = pairs[at] >> slotBits
      var end = at + 1
      while end < pairs.count, pairs[end] >> slotBits == packedCell { end += 1 }
      cells.addRun(row: Int64(packedCell >> columnBits), column: Int64(packedCell & columnMask), end: end)
      at = end
    }
    // Slots are in centre-cell order already: each centre cell is one run.
    let centreCells = centred.map { cellKey(latitude: degrees[Int($0)].latitude, longitude: degrees[Int($0)].longitude) }
    var distinctCentres = centreCells.isEmpty ? 0 : 1
    for at in centreCells.indices.dropFirst() where centreCells[at] != centreCells[at - 1] { distinctCentres += 1 }
    centres.lay(centred, cells: distinctCentres)
    at = 0
    while at < centred.count {
      let cell = centreCells[at]
      var end = at + 1
      while end < centred.count, centreCells[end] == cell { end += 1 }
      centres.addRun(row: cell / SlotGrid.rowFactor, column: cell % SlotGrid.rowFactor, end: end)
      at = end
    }
    cells.seal()
    centres.seal()
  }

  /// Into an index that holds circles: each list grows once.
  mutating func append(_ given: [Circle]) {
    let circles = Self.lastOfEachKey(given)
    reserveCapacity(count + circles.count)
    var filed: [(list: Int32, slot: Int32)] = []
    filed.reserveCapacity(circles.count * 4)
    var centred: [(list: Int32, slot: Int32)] = []
    centred.reserveCapacity(circles.count)
    for position in centreOrder(circles) {
      let circle = circles[position]
      let slot = place(key: circle.key, latitude: circle.latitude, longitude: circle.longitude, radius: circle.radius)
      guard let span = cellSpan(latitude: circle.latitude, longitude: circle.longitude, radius: circle.radius) else {
        appendPolar(slot)
        continue
      }
      for lat in span.lats {
        for lon in span.lons { filed.append((cells.list(cell(lat, lon)), slot)) }
      }
      centred.append((centres.list(cellKey(latitude: circle.latitude, longitude: circle.longitude)), slot))
    }
    cells.append(filed)
    centres.append(centred)
  }

  /// The circles with a key given once, and of a key given more than once
  /// only the last, as inserting them one by one would leave it. (Filing
  /// happens after every slot is taken, so a replaced circle's entries
  /// could not be taken back out.)
  static func lastOfEachKey(_ circles: [Circle]) -> [Circle] {
    // Keys in increasing order (as files number their rows) are distinct.
    if zip(circles, circles.dropFirst()).allSatisfy({ $0.key < $1.key }) { return circles }
    var last = KeyTable(capacity: circles.count)
    for (position, circle) in circles.enumerated() { last.set(circle.key, Int32(truncatingIfNeeded: position)) }
    guard last.count != circles.count else { return circles }
    return circles.enumerated().filter { last.find($0.element.key) == Int32(truncatingIfNeeded: $0.offset) }.map(\.element)
  }
}

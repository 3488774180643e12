import Foundation

/// A grid index over circles (a centre and its own radius) that answers
/// "which circles contain this point" and "the nearest K centres". Each
/// circle is filed under every grid cell its bounding box touches, so a
/// containment query reads one cell; a second grid files each centre once
/// for nearest-neighbour rings. Inserts and removals are incremental.
///
/// Keys are caller-chosen `Int`s (an index into the caller's own table).
/// Circles that reach within `polarMargin` of a pole are kept in a short
/// list checked on every query, since longitude cells degenerate there.
public struct CircleIndex: Sendable {
  public let cellDegrees: Double
  var slots = KeyTable()
  private(set) var keys: [Int] = []
  private(set) var phi: [Double] = []
  private(set) var lambda: [Double] = []
  private(set) var cosPhi: [Double] = []
  private(set) var radius: [Double] = []
  private(set) var alive: [Bool] = []
  /// The degrees as given, so removal files out of exactly the cells insertion used.
  var degrees: [(latitude: Double, longitude: Double)] = []
  private var freeSlots: [Int32] = []
  /// Cell → the circles touching it, each as a packed entry so a query scans
  /// one contiguous array and rejects most candidates without trigonometry.
  /// A list is a run of `baseEntries` filed by a bulk load into an empty
  /// index (one flat array: a million small arrays cost more to allocate
  /// than to fill) followed by its own array for what came later.
  private(set) var cellTable = CellTable()
  private(set) var cellLists: [[Entry]] = []
  var baseEntries: [Entry] = []
  var baseStart: [Int] = []
  var baseCount: [Int32] = []
  /// Cell → the circles whose centre lies in it, for nearest-neighbour rings (laid out the same way).
  private(set) var centreTable = CellTable()
  private(set) var centreLists: [[Int32]] = []
  var baseCentres: [Int32] = []
  var centreStart: [Int] = []
  var centreCount: [Int32] = []
  private(set) var polar: [Int32] = []
  let lonCells: Int64
  static let polarMargin = 1.0

  public init(cellDegrees: Double = 0.01) {
    precondition(cellDegrees > 0 && cellDegrees <= 10, "cell size must be in (0, 10] degrees")
    self.cellDegrees = cellDegrees
    lonCells = Int64((360 / cellDegrees).rounded(.up))
  }

  public var count: Int { slots.count }

  public mutating func reserveCapacity(_ count: Int) {
    keys.reserveCapacity(count)
    phi.reserveCapacity(count)
    lambda.reserveCapacity(count)
    cosPhi.reserveCapacity(count)
    radius.reserveCapacity(count)
    alive.reserveCapacity(count)
    degrees.reserveCapacity(count)
    slots.reserveCapacity(count)
    cellTable.reserveCapacity(count)
    centreTable.reserveCapacity(count)
  }

  /// Adds a circle, replacing any circle already under `key`.
  public mutating func insert(key: Int, latitude: Double, longitude: Double, radius meters: Double) {
    let slot = place(key: key, latitude: latitude, longitude: longitude, radius: meters)
    // Polar circles are checked from their own list by every query instead.
    if let covered = cellsCovering(latitude: latitude, longitude: longitude, radius: meters) {
      let entry = Entry(slot: slot, phi: Haversine.radians(latitude), lambda: Haversine.radians(longitude), radius: meters)
      for cell in covered { cellLists[Int(cellList(cell))].append(entry) }
      centreLists[Int(centreList(cellKey(latitude: latitude, longitude: longitude)))].append(slot)
    } else {
      polar.append(slot)
    }
  }

  /// Takes a slot for a circle (replacing any under `key`) and stores its
  /// numbers; filing it in cells is the caller's.
  mutating func place(key: Int, latitude: Double, longitude: Double, radius meters: Double) -> Int32 {
    if !slots.isEmpty { remove(key: key) }
    let slot = takeSlot(latitude: latitude, longitude: longitude, radius: meters, key: key)
    slots.set(key, slot)
    return slot
  }

  /// Fills an empty index's slots with `circles`, slot i for circle i
  /// (keys distinct); filing them in cells is the caller's.
  mutating func fill(_ circles: [Circle]) {
    precondition(keys.isEmpty, "fill is for an empty index")
    keys = circles.map(\.key)
    phi = circles.map { Haversine.radians($0.latitude) }
    lambda = circles.map { Haversine.radians($0.longitude) }
    cosPhi = phi.map(cos)
    radius = circles.map(\.radius)
    alive = [Bool](repeating: true, count: circles.count)
    degrees = circles.map { ($0.latitude, $0.longitude) }
    slots.reserveCapacity(circles.count)
    for (slot, key) in keys.enumerated() { slots.set(key, Int32(slot)) }
  }

  /// Room for this many cells and centre cells without growing.
  mutating func reserveCells(_ cells: Int, centres: Int) {
    cellTable.reserveCapacity(cells)
    cellLists.reserveCapacity(cells)
    baseStart.reserveCapacity(cells)
    baseCount.reserveCapacity(cells)
    centreTable.reserveCapacity(centres)
    centreLists.reserveCapacity(centres)
    centreStart.reserveCapacity(centres)
    centreCount.reserveCapacity(centres)
  }

  /// Stores a circle's numbers in a free slot or a new one.
  mutating func takeSlot(latitude: Double, longitude: Double, radius meters: Double, key: Int) -> Int32 {
    let slot: Int32
    let p = Haversine.radians(latitude)
    if let free = freeSlots.popLast() {
      slot = free
      let i = Int(free)
      keys[i] = key
      phi[i] = p
      lambda[i] = Haversine.radians(longitude)
      cosPhi[i] = cos(p)
      radius[i] = meters
      alive[i] = true
      degrees[i] = (latitude, longitude)
    } else {
      slot = Int32(keys.count)
      keys.append(key)
      phi.append(p)
      lambda.append(Haversine.radians(longitude))
      cosPhi.append(cos(p))
      radius.append(meters)
      alive.append(true)
      degrees.append((latitude, longitude))
    }
    return slot
  }

  /// The list index of a cell's circles, made when the cell has none yet.
  mutating func cellList(_ cell: Int64) -> Int32 {
    cellTable.findOrInsert(cell) {
      cellLists.append([])
      baseStart.append(0)
      baseCount.append(0)
      return Int32(cellLists.count - 1)
    }
  }

  /// The list index of a cell's centres, made when the cell has none yet.
  mutating func centreList(_ cell: Int64) -> Int32 {
    centreTable.findOrInsert(cell) {
      centreLists.append([])
      centreStart.append(0)
      centreCount.append(0)
      return Int32(centreLists.count - 1)
    }
  }

  mutating func appendPolar(_ slot: Int32) { polar.append(slot) }

  /// Appends entries to their lists, each list grown once to its final size.
  mutating func appendEntries(_ filed: [(list: Int32, entry: Entry)]) {
    var added = [Int](repeating: 0, count: cellLists.count)
    for item in filed { added[Int(item.list)] += 1 }
    for (list, extra) in added.enumerated() where extra > 0 { cellLists[list].reserveCapacity(cellLists[list].count + extra) }
    for item in filed { cellLists[Int(item.list)].append(item.entry) }
  }

  mutating func appendCentres(_ centres: [(list: Int32, slot: Int32)]) {
    var added = [Int](repeating: 0, count: centreLists.count)
    for item in centres { added[Int(item.list)] += 1 }
    for (list, extra) in added.enumerated() where extra > 0 { centreLists[list].reserveCapacity(centreLists[list].count + extra) }
    for item in centres { centreLists[Int(item.list)].append(item.slot) }
  }

  public mutating func remove(key: Int) {
    guard let slot = slots.remove(key) else { return }
    let i = Int(slot)
    let (latitude, longitude) = degrees[i]
    if let covered = cellsCovering(latitude: latitude, longitude: longitude, radius: radius[i]) {
      for cell in covered {
        guard let list = cellTable.find(cell).map(Int.init) else { continue }
        cellLists[list].removeAll { $0.slot == slot }
        // Out of the bulk run: the run's last entry takes its place.
        let start = baseStart[list]
        let end = start + Int(baseCount[list])
        if let at = (start..<end).first(where: { baseEntries[$0].slot == slot }) {
          baseEntries[at] = baseEntries[end - 1]
          baseCount[list] -= 1
        }
      }
      if let list = centreTable.find(cellKey(latitude: latitude, longitude: longitude)).map(Int.init) {
        centreLists[list].removeAll { $0 == slot }
        let start = centreStart[list]
        let end = start + Int(centreCount[list])
        if let at = (start..<end).first(where: { baseCentres[$0] == slot }) {
          baseCentres[at] = baseCentres[end - 1]
          centreCount[list] -= 1
        }
      }
    } else {
      polar.removeAll { $0 == slot }
    }
    alive[i] = false
    freeSlots.append(slot)
  }

  /// Calls `body` with the key of every circle whose radius contains the
  /// point (distance ≤ radius), in no particular order.
  @inline(__always)
  public func forEachContaining(latitude: Double, longitude: Double, _ body: (Int) -> Void) {
    let p1 = Haversine.radians(latitude)
    let l1 = Haversine.radians(longitude)
    let c1 = cos(p1)
    func exact(_ slot: Int32) {
      let i = Int(slot)
      if Haversine.distance(phi1: p1, lambda1: l1, cosPhi1: c1, phi2: phi[i], lambda2: lambda[i], cosPhi2: cosPhi[i]) <= radius[i] {
        body(keys[i])
      }
    }
    if let list = cellTable.find(cellKey(latitude: latitude, longitude: longitude)) {
      let x = c1 * cos(l1)
      let y = c1 * sin(l1)
      let z = sin(p1)
      func scan(_ entries: UnsafeBufferPointer<Entry>) {
        for entry in entries {
          switch entry.verdict(x, y, z) {
          case .outside: continue
          case .inside: body(keys[Int(entry.slot)])
          case .exact: exact(entry.slot)
          }
        }
      }
      let l = Int(list)
      let start = baseStart[l]
      baseEntries.withUnsafeBufferPointer { scan(UnsafeBufferPointer(rebasing: $0[start..<start + Int(baseCount[l])])) }
      cellLists[l].withUnsafeBufferPointer(scan)
    }
    for slot in polar { exact(slot) }
  }

  public func containing(latitude: Double, longitude: Double) -> [Int] {
    var result: [Int] = []
    forEachContaining(latitude: latitude, longitude: longitude) { result.append($0) }
    return result
  }
}

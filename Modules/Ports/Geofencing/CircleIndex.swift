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
  /// Key → slot. After a bulk load it is made at the first change
  /// (`slotsOwed`): a million keys hashed cost a tenth of the load, and a
  /// matcher that only reads never needs them.
  var slots = KeyTable()
  var slotsOwed = false
  /// Circles held (slots in use).
  public private(set) var count = 0
  private(set) var keys: [Int] = []
  /// The cosine of each centre's latitude (its radians are made from
  /// `degrees` when needed: one multiplication, the same bits).
  private(set) var cosPhi: [Double] = []
  private(set) var radius: [Double] = []
  private(set) var alive: [Bool] = []
  /// Each slot's unit vector and threshold: what the chord test reads.
  private(set) var vectors: [Entry] = []
  /// The degrees as given, so removal files out of exactly the cells insertion used.
  var degrees: [(latitude: Double, longitude: Double)] = []
  private var freeSlots: [Int32] = []
  /// Cell → the circles touching it; and cell → the circles whose centre
  /// lies in it, for nearest-neighbour rings.
  var cells = SlotGrid()
  var centres = SlotGrid()
  private(set) var polar: [Int32] = []
  let lonCells: Int64
  static let polarMargin = 1.0

  public init(cellDegrees: Double = 0.01) {
    precondition(cellDegrees > 0 && cellDegrees <= 10, "cell size must be in (0, 10] degrees")
    self.cellDegrees = cellDegrees
    lonCells = Int64((360 / cellDegrees).rounded(.up))
  }

  public mutating func reserveCapacity(_ count: Int) {
    keys.reserveCapacity(count)
    cosPhi.reserveCapacity(count)
    radius.reserveCapacity(count)
    alive.reserveCapacity(count)
    vectors.reserveCapacity(count)
    degrees.reserveCapacity(count)
    slots.reserveCapacity(count)
    cells.reserveCapacity(count)
    centres.reserveCapacity(count)
  }

  /// Adds a circle, replacing any circle already under `key`.
  public mutating func insert(key: Int, latitude: Double, longitude: Double, radius meters: Double) {
    let slot = place(key: key, latitude: latitude, longitude: longitude, radius: meters)
    // Polar circles are checked from their own list by every query instead.
    if let covered = cellsCovering(latitude: latitude, longitude: longitude, radius: meters) {
      for cell in covered { cells.append(slot, to: cells.list(cell)) }
      centres.append(slot, to: centres.list(cellKey(latitude: latitude, longitude: longitude)))
    } else {
      polar.append(slot)
    }
  }

  /// Takes a slot for a circle (replacing any under `key`) and stores its
  /// numbers; filing it in cells is the caller's.
  mutating func place(key: Int, latitude: Double, longitude: Double, radius meters: Double) -> Int32 {
    if count > 0 { remove(key: key) }
    let slot = takeSlot(latitude: latitude, longitude: longitude, radius: meters, key: key)
    slots.set(key, slot)
    count += 1
    return slot
  }

  /// The key table, made now if a bulk load left it owed.
  mutating func settleSlots() {
    guard slotsOwed else { return }
    slotsOwed = false
    slots = KeyTable(capacity: keys.count)
    for (slot, key) in keys.enumerated() where alive[slot] { slots.set(key, Int32(slot)) }
  }

  /// Fills an empty index's slots with `circles` in the order `order`
  /// gives (slot i holds circle order[i]; keys distinct); filing them in
  /// cells is the caller's.
  mutating func fill(_ circles: [Circle], order: [Int]) {
    precondition(keys.isEmpty, "fill is for an empty index")
    // The gather alone first: its cache misses overlap in a tight loop,
    // where with the trigonometry in the same loop each one stalled it.
    keys = order.map { circles[$0].key }
    degrees = order.map { (circles[$0].latitude, circles[$0].longitude) }
    radius = order.map { circles[$0].radius }
    var sinPhi: [Double] = []
    (sinPhi, cosPhi) = (Array(repeating: 0, count: degrees.count), Array(repeating: 0, count: degrees.count))
    for slot in degrees.indices { (sinPhi[slot], cosPhi[slot]) = Entry.sineAndCosine(Haversine.radians(degrees[slot].latitude)) }
    vectors = degrees.indices.map { slot in
      Entry(sinPhi: sinPhi[slot], cosPhi: cosPhi[slot], lambda: Haversine.radians(degrees[slot].longitude), radius: radius[slot])
    }
    alive = [Bool](repeating: true, count: order.count)
    count = order.count
    slotsOwed = true
  }

  /// Stores a circle's numbers in a free slot or a new one.
  mutating func takeSlot(latitude: Double, longitude: Double, radius meters: Double, key: Int) -> Int32 {
    let slot: Int32
    let p = Haversine.radians(latitude)
    let l = Haversine.radians(longitude)
    let (sine, c) = Entry.sineAndCosine(p)
    let vector = Entry(sinPhi: sine, cosPhi: c, lambda: l, radius: meters)
    if let free = freeSlots.popLast() {
      slot = free
      let i = Int(free)
      keys[i] = key
      cosPhi[i] = c
      radius[i] = meters
      alive[i] = true
      vectors[i] = vector
      degrees[i] = (latitude, longitude)
    } else {
      slot = Int32(keys.count)
      keys.append(key)
      cosPhi.append(c)
      radius.append(meters)
      alive.append(true)
      vectors.append(vector)
      degrees.append((latitude, longitude))
    }
    return slot
  }

  mutating func appendPolar(_ slot: Int32) { polar.append(slot) }

  public mutating func remove(key: Int) {
    settleSlots()
    guard let slot = slots.remove(key) else { return }
    let i = Int(slot)
    let (latitude, longitude) = degrees[i]
    if let covered = cellsCovering(latitude: latitude, longitude: longitude, radius: radius[i]) {
      for cell in covered { cells.remove(slot, from: cell) }
      centres.remove(slot, from: cellKey(latitude: latitude, longitude: longitude))
    } else {
      polar.removeAll { $0 == slot }
    }
    alive[i] = false
    count -= 1
    freeSlots.append(slot)
  }

  /// Calls `body` with the key of every circle whose radius contains the
  /// point (distance ≤ radius), in no particular order.
  @inline(__always)
  public func forEachContaining(latitude: Double, longitude: Double, _ body: (Int) -> Void) {
    let p1 = Haversine.radians(latitude)
    let l1 = Haversine.radians(longitude)
    let (s1, c1) = Entry.sineAndCosine(p1)
    func exact(_ slot: Int32) {
      let i = Int(slot)
      let (latitude, longitude) = degrees[i]
      let phi2 = Haversine.radians(latitude)
      let lambda2 = Haversine.radians(longitude)
      if Haversine.distance(phi1: p1, lambda1: l1, cosPhi1: c1, phi2: phi2, lambda2: lambda2, cosPhi2: cosPhi[i]) <= radius[i] {
        body(keys[i])
      }
    }
    if let list = cells.find(cellKey(latitude: latitude, longitude: longitude)) {
      let (sinL1, cosL1) = Entry.sineAndCosine(l1)
      let x = c1 * cosL1
      let y = c1 * sinL1
      let z = s1
      vectors.withUnsafeBufferPointer { vectors in
        cells.withSlots(of: list) { slots in
          for slot in slots {
            switch vectors[Int(slot)].verdict(x, y, z) {
            case .outside: continue
            case .inside: body(keys[Int(slot)])
            case .exact: exact(slot)
            }
          }
        }
      }
    }
    for slot in polar { exact(slot) }
  }

  public func containing(latitude: Double, longitude: Double) -> [Int] {
    var result: [Int] = []
    forEachContaining(latitude: latitude, longitude: longitude) { result.append($0) }
    return result
  }
}

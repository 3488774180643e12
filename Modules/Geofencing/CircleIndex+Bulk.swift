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
  /// already held is replaced). Each cell's list grows once to its final
  /// size instead of doubling, and no per-circle cell array is made:
  /// loading a million circles one at a time spent most of its time there.
  public mutating func insert(contentsOf given: [Circle]) {
    let circles = Self.lastOfEachKey(given)
    reserveCapacity(count + circles.count)
    // In the order of their centre cells: neighbours land in the same cell
    // lists one after the other, which the cache rewards.
    let cells = circles.map { cellKey(latitude: $0.latitude, longitude: $0.longitude) }
    let order = circles.indices.sorted { cells[$0] < cells[$1] }
    var filed: [(list: Int32, entry: Entry)] = []
    filed.reserveCapacity(circles.count * 4)
    var centres: [(list: Int32, slot: Int32)] = []
    centres.reserveCapacity(circles.count)
    for position in order {
      let circle = circles[position]
      let slot = place(key: circle.key, latitude: circle.latitude, longitude: circle.longitude, radius: circle.radius)
      guard let span = cellSpan(latitude: circle.latitude, longitude: circle.longitude, radius: circle.radius) else {
        appendPolar(slot)
        continue
      }
      let entry = Entry(
        slot: slot, phi: Haversine.radians(circle.latitude), lambda: Haversine.radians(circle.longitude), radius: circle.radius)
      for lat in span.lats {
        for lon in span.lons { filed.append((cellList(cell(lat, lon)), entry)) }
      }
      centres.append((centreList(cells[position]), slot))
    }
    appendEntries(filed)
    appendCentres(centres)
  }

  /// The circles with a key given once, and of a key given more than once
  /// only the last, as inserting them one by one would leave it. (Filing
  /// happens after every slot is taken, so a replaced circle's entries
  /// could not be taken back out.)
  static func lastOfEachKey(_ circles: [Circle]) -> [Circle] {
    var last: [Int: Int] = [:]
    last.reserveCapacity(circles.count)
    for (position, circle) in circles.enumerated() { last[circle.key] = position }
    guard last.count != circles.count else { return circles }
    return circles.enumerated().filter { last[$0.element.key] == $0.offset }.map(\.element)
  }
}

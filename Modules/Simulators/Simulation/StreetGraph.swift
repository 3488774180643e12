import Domain
import Foundation

/// Streets to move along: nodes with coordinates and, per travel mode,
/// which nodes connect and how far apart they are. Loaded from
/// ../shared/data/helsinki-roads.geojson (ways joined on shared OSM node
/// ids), or made as a synthetic grid when no file is given.
public struct StreetGraph: Sendable {
  public enum Mode: String, Sendable, CaseIterable, Codable {
    case walking, cycling, driving
  }

  public private(set) var nodes: [Coordinate] = []
  var walk: [[(Int32, Double)]] = []
  var drive: [[(Int32, Double)]] = []

  public var source = "synthetic grid"

  func edges(_ mode: Mode) -> [[(Int32, Double)]] { mode == .driving ? drive : walk }

  public static func load(geojson path: String) throws -> StreetGraph {
    guard let data = FileManager.default.contents(atPath: path), case .object(let root)? = try? JSONParser.parse(data, maxDepth: 32),
      case .array(let features)? = root["features"]
    else { throw ScenarioError(source: path, message: "not a GeoJSON FeatureCollection of streets", kind: "streets file") }
    var graph = StreetGraph()
    graph.source = (path as NSString).lastPathComponent
    var index: [Int64: Int32] = [:]
    func node(_ id: Int64, _ coordinate: Coordinate) -> Int32 {
      if let existing = index[id] { return existing }
      let new = Int32(graph.nodes.count)
      graph.nodes.append(coordinate)
      graph.walk.append([])
      graph.drive.append([])
      index[id] = new
      return new
    }
    for case .object(let feature) in features {
      guard case .object(let geometry)? = feature["geometry"], case .string("LineString")? = geometry["type"],
        case .array(let line)? = geometry["coordinates"], case .object(let properties)? = feature["properties"],
        case .array(let nodeList)? = properties["osm_nodes"], nodeList.count == line.count
      else { continue }
      let points = line.compactMap { value -> [Double]? in
        guard case .array(let pair) = value else { return nil }
        let numbers = pair.compactMap { if case .number(let number) = $0 { number } else { nil } }
        return numbers.count == pair.count ? numbers : nil
      }
      let ids = nodeList.compactMap { if case .number(let number) = $0 { Int64(exactly: number) } else { nil } }
      guard points.count == line.count, ids.count == nodeList.count else { continue }
      let walkable = properties["walkable"] == .bool(true)
      let drivable = properties["drivable"] == .bool(true)
      guard walkable || drivable else { continue }
      var previous: Int32?
      for (id, point) in zip(ids, points) where point.count >= 2 {
        guard let coordinate = try? Coordinate(latitude: point[1], longitude: point[0]) else { continue }
        let current = node(id, coordinate)
        if let previous, previous != current {
          let meters = graph.nodes[Int(previous)].distance(to: coordinate)
          // Direction is ignored: people walk both ways, and the simulated
          // drive only needs a plausible street path.
          if walkable {
            graph.walk[Int(previous)].append((current, meters))
            graph.walk[Int(current)].append((previous, meters))
          }
          if drivable {
            graph.drive[Int(previous)].append((current, meters))
            graph.drive[Int(current)].append((previous, meters))
          }
        }
        previous = current
      }
    }
    guard graph.nodes.count > 1 else { throw ScenarioError(source: path, message: "no streets in the file", kind: "streets file") }
    return graph
  }

  /// A square grid of streets `spacing` metres apart around `center`.
  public static func grid(center: Coordinate, size: Int = 15, spacing: Double = 120) -> StreetGraph {
    var graph = StreetGraph()
    let half = Double(size - 1) / 2
    for row in 0..<size {
      for column in 0..<size {
        graph.nodes.append(center.offset(meters: 0, bearing: 0).offset(meters: (Double(row) - half) * spacing, bearing: 0)
          .offset(meters: (Double(column) - half) * spacing, bearing: .pi / 2))
        graph.walk.append([])
        graph.drive.append([])
      }
    }
    for row in 0..<size {
      for column in 0..<size {
        let here = Int32(row * size + column)
        for (r, c) in [(row + 1, column), (row, column + 1)] where r < size && c < size {
          let there = Int32(r * size + c)
          for list in [\StreetGraph.walk, \StreetGraph.drive] {
            graph[keyPath: list][Int(here)].append((there, spacing))
            graph[keyPath: list][Int(there)].append((here, spacing))
          }
        }
      }
    }
    return graph
  }

  /// The node nearest a point that has streets for `mode`.
  public func nearestNode(to point: Coordinate, mode: Mode) -> Int {
    let adjacency = edges(mode)
    var best = 0
    var bestDistance = Double.infinity
    for (i, node) in nodes.enumerated() where !adjacency[i].isEmpty {
      let d = node.distance(to: point)
      if d < bestDistance {
        best = i
        bestDistance = d
      }
    }
    return best
  }

  /// The shortest street path (Dijkstra), as node indices; nil when unreachable.
  public func route(from start: Int, to goal: Int, mode: Mode) -> [Int]? {
    let adjacency = edges(mode)
    var distance = [Double](repeating: .infinity, count: nodes.count)
    var previous = [Int32](repeating: -1, count: nodes.count)
    var heap = MinHeap()
    distance[start] = 0
    heap.push((0, Int32(start)))
    while let (d, node) = heap.pop() {
      let n = Int(node)
      if n == goal { break }
      if d > distance[n] { continue }
      for (next, meters) in adjacency[n] where d + meters < distance[Int(next)] {
        distance[Int(next)] = d + meters
        previous[Int(next)] = node
        heap.push((d + meters, next))
      }
    }
    guard distance[goal].isFinite else { return nil }
    var path = [goal]
    while path.last! != start { path.append(Int(previous[path.last!])) }
    return path.reversed()
  }
}

/// A binary min-heap of (distance, node) for Dijkstra.
struct MinHeap {
  private var items: [(Double, Int32)] = []

  mutating func push(_ item: (Double, Int32)) {
    items.append(item)
    var i = items.count - 1
    while i > 0 {
      let parent = (i - 1) / 2
      guard items[i].0 < items[parent].0 else { break }
      items.swapAt(i, parent)
      i = parent
    }
  }

  mutating func pop() -> (Double, Int32)? {
    guard !items.isEmpty else { return nil }
    let top = items[0]
    let last = items.removeLast()
    if !items.isEmpty {
      items[0] = last
      var i = 0
      while true {
        let left = 2 * i + 1
        let right = left + 1
        var smallest = i
        if left < items.count && items[left].0 < items[smallest].0 { smallest = left }
        if right < items.count && items[right].0 < items[smallest].0 { smallest = right }
        if smallest == i { break }
        items.swapAt(i, smallest)
        i = smallest
      }
    }
    return top
  }
}

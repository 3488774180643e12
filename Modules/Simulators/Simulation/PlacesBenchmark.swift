import Domain
import Foundation
import Importing
import Providers

/// `whilehere-sim bench places`: suggestion latency and import matching
/// speed against a large synthetic provider (places spread over a
/// metropolitan area, with realistic chain-and-street names).
public enum PlacesBenchmark {
  public struct Report: Sendable {
    public let places: Int
    public let rows: Int
    public let loadSeconds: Double
    public let suggestMedianMs: Double
    public let suggestP95Ms: Double
    public let importRowsPerSecond: Double
    public let importAccepted: Int
  }

  static let chains = ["K-Market", "S-Market", "Alepa", "Lidl", "Prisma", "R-kioski", "Apteekki", "Posti", "Café", "Ravintola"]
  static let categories = [
    "shop=supermarket", "shop=supermarket", "shop=convenience", "shop=supermarket", "shop=supermarket", "shop=kiosk",
    "amenity=pharmacy", "amenity=post_office", "amenity=cafe", "amenity=restaurant",
  ]
  static let streets = ["Mannerheimintie", "Aleksanterinkatu", "Hämeentie", "Mechelininkatu", "Itäkatu", "Kauppakatu", "Tapiola", "Leppävaara", "Tikkurila", "Kallio"]

  public static func run(places count: Int, rows: Int, seed: UInt64 = 1) throws -> Report {
    var random = SimRandom(seed: seed)
    let center = try Coordinate(latitude: 60.1699, longitude: 24.9384)
    let clock = ContinuousClock()
    var provider: InMemoryPlaceProvider!
    var generated: [ProviderPlace] = []
    let load = clock.measure {
      generated = (0..<count).map { i in
        let chain = Int(random.next() % UInt64(chains.count))
        let street = streets[Int(random.next() % UInt64(streets.count))]
        let point = center.offset(meters: 20_000 * random.unit().squareRoot(), bearing: random.uniform(0...(2 * .pi)))
        return ProviderPlace(
          ref: "synthetic:\(i)", name: "\(chains[chain]) \(street) \(i % 97)", coordinate: point, category: categories[chain], address: nil)
      }
      provider = InMemoryPlaceProvider(name: "synthetic", places: generated)
    }
    let suggester = Suggester(provider: provider)
    var latencies: [Double] = []
    for _ in 0..<200 {
      let point = center.offset(meters: 15_000 * random.unit().squareRoot(), bearing: random.uniform(0...(2 * .pi)))
      latencies.append(seconds(clock.measure { _ = try? suggester.suggest("buy milk and coffee", near: point) }) * 1000)
    }
    latencies.sort()
    let matcher = PlaceMatcher(provider: provider)
    var accepted = 0
    let titles = (0..<rows).map { _ in generated[Int(random.next() % UInt64(generated.count))].name }
    let matching = try clock.measure {
      for title in titles {
        if case .accepted = try matcher.match(title).decision { accepted += 1 }
      }
    }
    return Report(
      places: count, rows: rows, loadSeconds: seconds(load), suggestMedianMs: latencies[latencies.count / 2],
      suggestP95Ms: latencies[latencies.count * 95 / 100], importRowsPerSecond: Double(rows) / max(seconds(matching), 1e-9),
      importAccepted: accepted)
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}

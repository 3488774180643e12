import Domain
import Foundation
import Providers

/// `whilehere-sim bench suggestions`: everyday task phrases (English,
/// Finnish, Swedish) at points around central Helsinki, and whether the
/// first suggestion is a kind of place that does the errand. The phrases
/// and what counts as right were written from the errands, apart from the
/// keyword table; a phrase the table lacks fails here until it learns it.
public enum SuggestionReport {
  public struct Phrase: Sendable {
    public let text: String
    public let acceptable: Set<String>
  }

  public struct Line: Sendable {
    public let phrase: String
    public let point: Coordinate
    public let first: Suggester.Suggestion?
    public let sensible: Bool
  }

  public static let phrases: [Phrase] = [
    ("buy milk", ["shop=supermarket", "shop=convenience"]), ("buy bread", ["shop=bakery", "shop=supermarket", "shop=convenience"]),
    ("pick up prescription", ["amenity=pharmacy"]), ("post a letter", ["amenity=post_office", "amenity=post_box"]),
    ("get cash", ["amenity=atm", "amenity=bank"]), ("coffee with Anna", ["amenity=cafe"]), ("go to the gym", ["leisure=fitness_centre", "leisure=sports_centre"]),
    ("buy batteries", ["shop=electronics", "shop=hardware", "amenity=recycling", "shop=supermarket"]),
    ("recycle bottles", ["amenity=recycling", "shop=supermarket"]), ("dry cleaning", ["shop=dry_cleaning", "shop=laundry"]),
    ("laundry", ["shop=laundry", "shop=dry_cleaning"]), ("fix bike", ["shop=bicycle"]), ("return library books", ["amenity=library"]),
    ("haircut", ["shop=hairdresser", "shop=barber"]), ("buy flowers", ["shop=florist"]), ("new glasses", ["shop=optician"]),
    ("osta maitoa", ["shop=supermarket", "shop=convenience"]), ("apteekki", ["amenity=pharmacy"]), ("kuntosali", ["leisure=fitness_centre", "leisure=sports_centre"]),
    ("köpa mjölk", ["shop=supermarket", "shop=convenience"]), ("bibliotek", ["amenity=library"]),
  ].map { Phrase(text: $0.0, acceptable: Set($0.1)) }

  public static let points: [Coordinate] = [(60.1699, 24.9384), (60.1655, 24.9480), (60.1730, 24.9420)].map {
    try! Coordinate(latitude: $0.0, longitude: $0.1)
  }

  public static func run(provider: any PlaceProvider, keywords: KeywordCategories = .builtIn) throws -> [Line] {
    let suggester = Suggester(provider: provider, keywords: keywords)
    var lines: [Line] = []
    for phrase in phrases {
      for point in points {
        let first = try suggester.suggest(phrase.text, near: point, radius: 2000, limit: 1).first
        lines.append(Line(phrase: phrase.text, point: point, first: first, sensible: first.map { phrase.acceptable.contains($0.place.category) } ?? false))
      }
    }
    return lines
  }
}

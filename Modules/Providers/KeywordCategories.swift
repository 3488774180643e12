import Domain
import Foundation

/// What a task's words mean in places: "milk" → supermarkets and convenience
/// stores. A JSON object `{"word": ["key=value", …]}`; the built-in table can
/// be extended or overridden by a file (`keywords` in config).
public struct KeywordCategories: Sendable, Equatable {
  public private(set) var table: [String: [String]]

  public static let builtIn = KeywordCategories(table: [
    "milk": ["shop=supermarket", "shop=convenience"], "bread": ["shop=bakery", "shop=supermarket", "shop=convenience"],
    "groceries": ["shop=supermarket", "shop=convenience"], "food": ["shop=supermarket", "shop=convenience"],
    "eggs": ["shop=supermarket", "shop=convenience"], "coffee": ["amenity=cafe"], "lunch": ["amenity=restaurant", "amenity=fast_food", "amenity=cafe"],
    "dinner": ["amenity=restaurant"], "beer": ["amenity=pub", "amenity=bar"], "prescription": ["amenity=pharmacy"],
    "medicine": ["amenity=pharmacy"], "pharmacy": ["amenity=pharmacy"], "cash": ["amenity=atm", "amenity=bank"],
    "bank": ["amenity=bank"], "stamps": ["amenity=post_office"], "parcel": ["amenity=post_office"],
    "letter": ["amenity=post_office", "amenity=post_box"], "post": ["amenity=post_office", "amenity=post_box"],
    "book": ["shop=books", "amenity=library"], "books": ["shop=books", "amenity=library"], "library": ["amenity=library"],
    "glasses": ["shop=optician"], "haircut": ["shop=hairdresser"], "flowers": ["shop=florist"],
    "shoes": ["shop=shoes"], "clothes": ["shop=clothes"], "fuel": ["amenity=fuel"], "petrol": ["amenity=fuel"],
    "bike": ["shop=bicycle", "amenity=bicycle_rental"], "hotel": ["tourism=hotel"], "museum": ["tourism=museum"],
  ])

  public init(table: [String: [String]]) { self.table = table }

  /// The built-in table with a file's entries laid over it.
  public static func load(extending base: KeywordCategories = .builtIn, file path: String) throws -> KeywordCategories {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ProviderError(provider: "keywords", reason: "cannot read \(path)")
    }
    guard let object = try? JSONDecoder().decode([String: [String]].self, from: data) else {
      throw ProviderError(provider: "keywords", reason: "\(path) must be a JSON object of word → [\"key=value\", …]")
    }
    var table = base.table
    for (word, categories) in object { table[SearchText.fold(word)] = categories }
    return KeywordCategories(table: table)
  }

  /// The categories the words of `text` point at (plural "s" tolerated).
  public func categories(for text: String) -> Set<String> {
    var result = Set<String>()
    for word in SearchText.fold(text).split(separator: " ").map(String.init) {
      if let found = table[word] ?? (word.hasSuffix("s") ? table[String(word.dropLast())] : nil) { result.formUnion(found) }
    }
    return result
  }
}

import Domain
import Foundation

/// What a task's words mean in places: "milk" → supermarkets and convenience
/// stores. A JSON object `{"word": ["key=value", …]}`; the built-in table can
/// be extended or overridden by a file (`keywords` in config).
public struct KeywordCategories: Sendable, Equatable {
  public private(set) var table: [String: [String]]

  /// Resources/keywords.json: English, Finnish and Swedish words.
  public static let builtIn: KeywordCategories = {
    guard let url = Bundle.module.url(forResource: "keywords", withExtension: "json"), let data = try? Data(contentsOf: url),
      let table = try? parse(data)
    else { return KeywordCategories(table: [:]) }
    return KeywordCategories(table: table)
  }()

  /// `{"word": ["key=value", …]}`; keys starting with `_` are comments.
  /// Read by the project's JSON parser, like every other outside JSON.
  static func parse(_ data: Data) throws(ProviderError) -> [String: [String]] {
    let root: JSONValue
    do {
      root = try JSONParser.parse(data)
    } catch {
      throw ProviderError(provider: "keywords", reason: "not JSON: \(error)")
    }
    guard case .object(let object) = root else {
      throw ProviderError(provider: "keywords", reason: "must be a JSON object of word → [\"key=value\", …], not \(root.typeName)")
    }
    var table: [String: [String]] = [:]
    for (word, value) in object where !word.hasPrefix("_") {
      let refused = ProviderError(provider: "keywords", reason: "'\(word)' must map to a list of \"key=value\" categories")
      guard case .array(let items) = value else { throw refused }
      var categories: [String] = []
      for item in items {
        guard case .string(let category) = item, category.contains("=") else { throw refused }
        categories.append(category)
      }
      table[SearchText.fold(word)] = categories
    }
    return table
  }

  public init(table: [String: [String]]) { self.table = table }

  /// The built-in table with a file's entries laid over it.
  public static func load(extending base: KeywordCategories = .builtIn, file path: String) throws -> KeywordCategories {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ProviderError(provider: "keywords", reason: "cannot read \(path)")
    }
    let object: [String: [String]]
    do {
      object = try parse(data)
    } catch {
      throw ProviderError(provider: "keywords", reason: "\(path): \(error.reason)")
    }
    var table = base.table
    for (word, categories) in object { table[SearchText.fold(word)] = categories }
    return KeywordCategories(table: table)
  }

  /// The categories the words of `text` point at (plural "s" tolerated).
  public func categories(for text: String) -> Set<String> { Set(fit(for: text).keys) }

  /// How well each category fits the words: each word gives its first
  /// category 1, its second 0.67, its third 0.5 …, summed over the words,
  /// so "fix bike" fits a bike shop (bike 1 + fix 0.5) over a city-bike
  /// dock (0.67), and "return library books" a library over a bookshop.
  public func fit(for text: String) -> [String: Double] {
    var fit: [String: Double] = [:]
    for word in SearchText.fold(text).split(separator: " ").map(String.init) {
      guard let found = entry(word) else { continue }
      for (rank, category) in found.enumerated() { fit[category, default: 0] += 1 / (1 + 0.5 * Double(rank)) }
    }
    return fit
  }

  /// Words the table knows (they ask for kinds of place, not names).
  public func knows(_ word: String) -> Bool { entry(word) != nil }

  /// A word as written or bent: English plural -s, Finnish case endings
  /// ("maitoa", "apteekista"), Swedish definite forms ("mjölken").
  func entry(_ word: String) -> [String]? {
    if let found = table[word] { return found }
    let endings = ["ssa", "sta", "lla", "lta", "lle", "ksi", "ta", "en", "et", "an", "na", "a", "n", "s"]
    for ending in endings where word.count > ending.count + 2 && word.hasSuffix(ending) {
      if let found = table[String(word.dropLast(ending.count))] { return found }
    }
    return nil
  }
}

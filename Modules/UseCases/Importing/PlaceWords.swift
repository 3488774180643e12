import Domain
import Foundation

/// Words that mean the same in place names across English, Finnish and
/// Swedish (Resources/place-words.json), so "Old Church Park" meets "Vanha
/// kirkkopuisto" and "Observatory Hill" meets "Tähtitornin vuori". A word
/// of a group becomes the group's token (`@12`, or `@3|@12` for a word in
/// two groups); a Finnish compound ending in a known word splits there; a
/// known phrase ("market hall") becomes one token; stop words go.
struct PlaceWords: Sendable {
  let concepts: [String: Set<Int>]
  /// The words of each group, for asking a provider for every equivalent.
  let members: [Int: [String]]
  /// Phrases of more than one word, as word lists, with their group.
  let phrases: [(words: [String], group: Int)]
  let stopwords: Set<String>

  static let shared: PlaceWords = {
    guard let url = Bundle.module.url(forResource: "place-words", withExtension: "json"), let data = try? Data(contentsOf: url),
      let table = try? load(data)
    else { return PlaceWords(concepts: [:], members: [:], phrases: [], stopwords: []) }
    return table
  }()

  struct File: Decodable {
    let stopwords: [String]
    let groups: [[String]]
  }

  static func load(_ data: Data) throws -> PlaceWords {
    let file = try JSONDecoder().decodeOutside(File.self, from: data)
    var concepts: [String: Set<Int>] = [:]
    var phrases: [(words: [String], group: Int)] = []
    for (index, group) in file.groups.enumerated() {
      for entry in group {
        let words = SearchText.fold(entry).split(separator: " ").map(String.init)
        if words.count == 1 {
          concepts[words[0], default: []].insert(index)
        } else if words.count > 1 {
          phrases.append((words, index))
        }
      }
    }
    // Longest phrases first, so "town hall" is tried before "hall".
    phrases.sort { $0.words.count > $1.words.count }
    var members: [Int: [String]] = [:]
    for (word, groups) in concepts { for group in groups { members[group, default: []].append(word) } }
    return PlaceWords(concepts: concepts, members: members.mapValues { $0.sorted() }, phrases: phrases, stopwords: Set(file.stopwords.map(SearchText.fold)))
  }

  static func token(_ groups: Set<Int>) -> String { groups.sorted().map { "@\($0)" }.joined(separator: "|") }

  /// Two tokens of groups share one.
  static func sameGroup(_ a: String, _ b: String) -> Bool {
    guard a.hasPrefix("@"), b.hasPrefix("@") else { return false }
    return !Set(a.split(separator: "|")).isDisjoint(with: b.split(separator: "|"))
  }

  /// The groups of a word as written, or in a form its language bends it
  /// to (Finnish genitive -n, Swedish definite -en/-an/-et/-n).
  func groups(of word: String) -> Set<Int>? {
    if let found = concepts[word] { return found }
    for suffix in ["en", "an", "et", "n"] where word.count > suffix.count + 2 && word.hasSuffix(suffix) {
      if let found = concepts[String(word.dropLast(suffix.count))] { return found }
    }
    return nil
  }

  /// Folded words to match on.
  func tokens(_ words: [String]) -> [String] {
    var tokens: [String] = []
    var index = 0
    let kept = words.filter { !stopwords.contains($0) }
    outer: while index < kept.count {
      for phrase in phrases where index + phrase.words.count <= kept.count {
        if Array(kept[index..<(index + phrase.words.count)]) == phrase.words {
          tokens.append(Self.token([phrase.group]))
          index += phrase.words.count
          continue outer
        }
      }
      tokens += split(kept[index])
      index += 1
    }
    return tokens.isEmpty ? words : tokens
  }

  /// A word, or a compound split before a known last part of 4 letters or
  /// more ("kirkkopuisto" → kirkko, puisto; "yrjonkatu" → yrjon, katu).
  func split(_ word: String) -> [String] {
    if let found = groups(of: word) { return [Self.token(found)] }
    guard word.count >= 7, word.first?.isNumber == false else { return [word] }
    let characters = Array(word)
    for cut in 3...(characters.count - 4) {
      let tail = String(characters[cut...])
      guard let found = groups(of: tail) else { continue }
      let head = String(characters[..<cut])
      return [groups(of: head).map(Self.token) ?? head, Self.token(found)]
    }
    return [word]
  }
}

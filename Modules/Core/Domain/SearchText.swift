import Foundation

/// Folds text the way people search: case, accents and punctuation ignored
/// ("Cafe" finds "Café", "kauppahalli" finds "Vanha Kauppahalli").
public enum SearchText {
  public static func fold(_ text: String) -> String {
    let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
    var result = ""
    result.reserveCapacity(folded.utf8.count)
    var lastWasSpace = true
    for scalar in folded.unicodeScalars {
      if CharacterSet.alphanumerics.contains(scalar) {
        result.unicodeScalars.append(scalar)
        lastWasSpace = false
      } else if !lastWasSpace {
        result.append(" ")
        lastWasSpace = true
      }
    }
    if result.hasSuffix(" ") { result.removeLast() }
    return result
  }

  /// Every word of the query appears somewhere in the haystack.
  public static func matches(query: String, in haystack: String) -> Bool {
    let words = fold(query).split(separator: " ")
    guard !words.isEmpty else { return true }
    let target = fold(haystack)
    return words.allSatisfy { target.contains($0) }
  }
}

/// "Did you mean …?" for mistyped keys and names: the closest known word
/// within an edit distance of 2.
enum Suggestion {
  static func closest(to word: String, in candidates: [String]) -> String? {
    candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
      .filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
  }

  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + [Int](repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}

import Domain

/// How people point at a task, place or list from a command line: the full
/// id, the name (case- and accent-insensitive), the start of a name, a
/// unique id prefix, or the starts of some of the name's words. Where several share a name, the preferred ones (for
/// tasks: not completed) win, so last week's finished "Buy milk" does not
/// make this week's ambiguous. Nothing matching names the nearest name.
enum Reference {
  struct Candidate<Value> {
    let id: String
    let name: String
    let preferred: Bool
    let value: Value
  }

  static func resolve<Value>(
    _ reference: String, kind: String, in candidates: [(id: String, name: String, value: Value)]
  ) throws(DomainError) -> Value {
    try resolve(reference, kind: kind, among: candidates.map { Candidate(id: $0.id, name: $0.name, preferred: true, value: $0.value) })
  }

  static func resolve<Value>(_ reference: String, kind: String, among candidates: [Candidate<Value>]) throws(DomainError) -> Value {
    if let exact = candidates.first(where: { $0.id == reference }) { return exact.value }
    let folded = SearchText.fold(reference)
    guard !folded.isEmpty else { throw .notFound(kind: kind, reference: reference) }
    // Each name folded once, for the three ways a name can match below.
    let names = candidates.map { SearchText.fold($0.name) }
    let named = candidates.indices.filter { names[$0] == folded }.map { candidates[$0] }
    if let chosen = try pick(named, reference: reference, kind: kind) { return chosen }
    let prefixed = reference.count >= 3 ? candidates.filter { $0.id.hasPrefix(reference) } : []
    if let chosen = try pick(prefixed, reference: reference, kind: kind) { return chosen }
    let started = candidates.indices.filter { names[$0].hasPrefix(folded) }.map { candidates[$0] }
    if let chosen = try pick(started, reference: reference, kind: kind) { return chosen }
    // Words of the name, in any order ("milk" for "Buy milk", "post parcel"
    // for "Post the parcel"); three letters at least, so one letter does not pick.
    let words = folded.split(separator: " ")
    let worded =
      folded.count >= 3
      ? candidates.indices.filter { at in hasWords(words, in: names[at]) }.map { candidates[$0] } : []
    if let chosen = try pick(worded, reference: reference, kind: kind) { return chosen }
    throw .notFound(kind: kind, reference: reference, nearest: nearest(folded, in: candidates, names: names))
  }

  /// Whether each of `words` starts a word of `name` (folded: words one
  /// space apart).
  static func hasWords(_ words: [Substring], in name: String) -> Bool {
    guard name.utf8.allSatisfy({ $0 < 0x80 }), words.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) else {
      let parts = name.split(separator: " ")
      return words.allSatisfy { word in parts.contains { $0.hasPrefix(word) } }
    }
    // Bytes are characters here: the name is not split into words to compare.
    let bytes = name.utf8
    return words.allSatisfy { word in
      var at = bytes.startIndex
      while at != bytes.endIndex {
        if bytes[at...].starts(with: word.utf8) { return true }
        guard let space = bytes[at...].firstIndex(of: UInt8(ascii: " ")) else { return false }
        at = bytes.index(after: space)
      }
      return false
    }
  }

  /// One candidate, or the one preferred among several; several equally
  /// good are ambiguous; none is nil.
  private static func pick<Value>(_ found: [Candidate<Value>], reference: String, kind: String) throws(DomainError) -> Value? {
    if found.count == 1 { return found[0].value }
    guard found.count > 1 else { return nil }
    let preferred = found.filter(\.preferred)
    if preferred.count == 1 { return preferred[0].value }
    let listed = preferred.isEmpty ? found : preferred
    throw .ambiguous(kind: kind, reference: reference, candidates: listed.map { "\($0.id) (\($0.name))" }.sorted())
  }

  /// The closest name by edits, if close enough to be a slip (a third of
  /// the typed length, at least 2); among equally close, a preferred one,
  /// then the first name in order.
  static func nearest<Value>(_ folded: String, in candidates: [Candidate<Value>], names: [String]) -> String? {
    let limit = max(2, folded.count / 3)
    var best: (distance: Int, preferred: Bool, name: String)?
    let typed = Array(folded)
    let typedBytes = folded.utf8.allSatisfy { $0 < 0x80 } ? Array(folded.utf8) : nil
    // The two rows of the table, kept across names: 100,000 names are compared on a slip.
    var rows: ([Int], [Int]) = ([], [])
    for (candidate, name) in zip(candidates, names) {
      // Checked against the best so far: a slip further off cannot win.
      let bound = min(limit, best?.distance ?? limit)
      var distance: Int?
      if let typedBytes, name.utf8.allSatisfy({ $0 < 0x80 }) {
        // Folded ASCII text is one character per byte.
        guard abs(name.utf8.count - typedBytes.count) <= bound else { continue }
        var name = name
        distance = typedBytes.withUnsafeBufferPointer { typed in name.withUTF8 { editDistance(typed, $0, atMost: bound, rows: &rows) } }
      } else {
        guard abs(name.count - typed.count) <= bound else { continue }
        distance = editDistance(typed, Array(name), atMost: bound, rows: &rows)
      }
      guard let distance else { continue }
      if let current = best {
        guard (distance, candidate.preferred ? 0 : 1, candidate.name) < (current.distance, current.preferred ? 0 : 1, current.name) else { continue }
      }
      best = (distance, candidate.preferred, candidate.name)
    }
    return best?.name
  }

  /// The edit distance of `a` and `b` if it is at most `limit`, else nil:
  /// rows stop once every cell is past the limit. `rows` is scratch room.
  static func editDistance<C: RandomAccessCollection>(_ a: C, _ b: C, atMost limit: Int, rows: inout ([Int], [Int])) -> Int?
  where C.Element: Equatable, C.Index == Int {
    guard abs(a.count - b.count) <= limit else { return nil }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    rows.0.removeAll(keepingCapacity: true)
    rows.0.append(contentsOf: 0...b.count)
    rows.1.removeAll(keepingCapacity: true)
    rows.1.append(contentsOf: repeatElement(0, count: b.count + 1))
    for i in 1...a.count {
      rows.1[0] = i
      var smallest = i
      let left = a[a.startIndex + i - 1]
      for j in 1...b.count {
        let cell = min(rows.0[j] + 1, rows.1[j - 1] + 1, rows.0[j - 1] + (left == b[b.startIndex + j - 1] ? 0 : 1))
        rows.1[j] = cell
        smallest = min(smallest, cell)
      }
      if smallest > limit { return nil }
      swap(&rows.0, &rows.1)
    }
    return rows.0[b.count] <= limit ? rows.0[b.count] : nil
  }

  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    var rows: ([Int], [Int]) = ([], [])
    return editDistance(a, b, atMost: .max, rows: &rows) ?? .max
  }
}

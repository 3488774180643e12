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
      ? candidates.indices.filter { at in
        let parts = names[at].split(separator: " ")
        return words.allSatisfy { word in parts.contains { $0.hasPrefix(word) } }
      }.map { candidates[$0] } : []
    if let chosen = try pick(worded, reference: reference, kind: kind) { return chosen }
    throw .notFound(kind: kind, reference: reference, nearest: nearest(folded, in: candidates, names: names))
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
  /// the typed length, at least 2).
  static func nearest<Value>(_ folded: String, in candidates: [Candidate<Value>], names: [String]) -> String? {
    let limit = max(2, folded.count / 3)
    var best: (distance: Int, name: String)?
    let order = candidates.indices.sorted {
      (candidates[$0].preferred ? 0 : 1, candidates[$0].name) < (candidates[$1].preferred ? 0 : 1, candidates[$1].name)
    }
    for at in order {
      let (candidate, name) = (candidates[at], names[at])
      guard abs(name.count - folded.count) <= limit else { continue }
      let distance = editDistance(Array(folded), Array(name))
      if distance <= limit, distance < best?.distance ?? .max { best = (distance, candidate.name) }
    }
    return best?.name
  }

  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}

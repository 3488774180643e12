import Domain

/// How people point at a task, place or list from a command line: the full
/// id, a unique id prefix, or the name (case- and accent-insensitive).
enum Reference {
  static func resolve<Value>(
    _ reference: String, kind: String, in candidates: [(id: String, name: String, value: Value)]
  ) throws(DomainError) -> Value {
    if let exact = candidates.first(where: { $0.id == reference }) { return exact.value }
    let folded = SearchText.fold(reference)
    let named = candidates.filter { SearchText.fold($0.name) == folded }
    if named.count == 1 { return named[0].value }
    if named.count > 1 {
      throw .ambiguous(kind: kind, reference: reference, candidates: named.map { "\($0.id) (\($0.name))" }.sorted())
    }
    let prefixed = reference.count >= 3 ? candidates.filter { $0.id.hasPrefix(reference) } : []
    if prefixed.count == 1 { return prefixed[0].value }
    if prefixed.count > 1 {
      throw .ambiguous(kind: kind, reference: reference, candidates: prefixed.map { "\($0.id) (\($0.name))" }.sorted())
    }
    throw .notFound(kind: kind, reference: reference)
  }
}

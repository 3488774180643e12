import Foundation

/// Memoised `PlaceMatcher.words(name)`, safe to share between threads.
final class NameCache: @unchecked Sendable {
  private var cache: [String: [String]] = [:]
  private let lock = NSLock()

  func words(_ name: String) -> [String] {
    if let hit = lock.withLock({ cache[name] }) { return hit }
    let words = PlaceMatcher.words(name)
    lock.withLock { cache[name] = words }
    return words
  }
}

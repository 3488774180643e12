import Foundation
import Locking

/// Memoised `PlaceMatcher.words(name)`, safe to share between threads.
final class NameCache: Sendable {
  private let cache = Locked<[String: [String]]>([:])

  func words(_ name: String) -> [String] {
    if let hit = cache.withLock({ $0[name] }) { return hit }
    let words = PlaceMatcher.words(name)
    cache.withLock { $0[name] = words }
    return words
  }
}

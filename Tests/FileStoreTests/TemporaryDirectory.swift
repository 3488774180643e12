import Foundation

/// A fresh directory under the system temp dir, removed when the test ends.
final class TemporaryDirectory {
  let path: String

  init() {
    path = NSTemporaryDirectory() + "whilehere-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  func file(_ name: String) -> String { path + "/" + name }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

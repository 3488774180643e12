import Foundation

/// A fresh directory under the system temp dir, removed when the test ends.
public final class TemporaryDirectory {
  public let path: String

  public init() {
    path = NSTemporaryDirectory() + "whilehere-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  public func file(_ name: String) -> String { path + "/" + name }

  /// Writes `text` to a file in the directory and returns its path.
  public func write(_ name: String, _ text: String) -> String {
    _ = FileManager.default.createFile(atPath: file(name), contents: Data(text.utf8))
    return file(name)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

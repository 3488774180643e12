import Composition
import Foundation

/// Holds a store open the way whilehered does (the writer lock from open
/// to close), via the public runtime.
final class FileOperationStoreHolder {
  let runtime: Runtime

  init(directory: String) throws {
    runtime = try Runtime.boot(LaunchOptions(program: .headless, overrides: ["store": "file:" + directory], environment: [:]))
  }

  func release() { runtime.shutdown() }
}

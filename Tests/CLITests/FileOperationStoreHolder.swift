import Composition
import Foundation

/// Holds a store open the way another process would, via the public runtime.
final class FileOperationStoreHolder {
  let runtime: Runtime

  init(directory: String) throws {
    runtime = try Runtime.boot(LaunchOptions(program: .cli, overrides: ["store": "file:" + directory], environment: [:]))
  }

  func release() { runtime.shutdown() }
}

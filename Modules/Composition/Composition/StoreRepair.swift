import FileStore
import Foundation
import Persistence

/// `whilehere store recover` for the configured store: only a `file:` store
/// on this machine can be missing parts.
public enum StoreRepair {
  public static func recover(storeSpec: String, environment: [String: String]) throws -> StoreSalvage.Outcome {
    let spec = ProviderSpec(storeSpec)
    guard spec.name == "file", let directory = spec.argument else {
      throw ConfigError.invalidValue(
        source: "store recover", key: "store", value: storeSpec, allowed: "a file: store (only those keep files that can go missing)")
    }
    return try StoreSalvage.recover(directory: XDG.expandTilde(directory, environment))
  }
}

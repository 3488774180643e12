import Foundation
import Gateway

/// A registry entry for what signs answer links and sessions: the length
/// of its key, how a new key is made (saved beside the store on first
/// start), and the signer over a key.
public struct SignerFactory: Sendable {
  public let summary: String
  public let keyLength: Int
  public let generateKey: @Sendable () -> Data
  public let make: @Sendable (Data) throws -> any TokenSigner

  public init(
    summary: String, keyLength: Int, generateKey: @escaping @Sendable () -> Data, make: @escaping @Sendable (Data) throws -> any TokenSigner
  ) {
    self.summary = summary
    self.keyLength = keyLength
    self.generateKey = generateKey
    self.make = make
  }
}

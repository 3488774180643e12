import Domain
import Foundation
import Gateway

/// What an answer button's URL carries, signed: whose task, which answer,
/// until when, and a nonce so it works once.
struct ActionToken: Codable, Equatable {
  /// Person, task id, action (`done` / `later`), expiry (epoch s), nonce.
  let p: String
  let t: String
  let a: String
  let e: Int
  let n: String

  func sealed(with signer: any TokenSigner) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // Encoding five plain fields cannot fail.
    return signer.sign((try? encoder.encode(self)) ?? Data())
  }

  /// Nil for anything this server did not sign.
  static func open(_ text: String, with signer: any TokenSigner) -> ActionToken? {
    guard let payload = signer.open(text) else { return nil }
    return try? JSONDecoder().decodeOutside(ActionToken.self, from: payload)
  }

  /// The setting that records a used token until it expires.
  var usedKey: String { "action.used.\(n)" }
}

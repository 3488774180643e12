import Domain
import Foundation
import Gateway

/// A `TokenSigner` for tests that need no libsodium: the payload with a
/// keyed FNV-1a tag. Not secure; it only keeps the contract's shape.
public struct FakeTokenSigner: TokenSigner {
  let key: String

  public init(key: String = "test") { self.key = key }

  public func sign(_ payload: Data) -> String {
    payload.map { String(format: "%02x", $0) }.joined() + "-" + tag(payload)
  }

  public func open(_ token: String) -> Data? {
    let parts = token.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count % 2 == 0, parts[0].utf8.count < 8192 else { return nil }
    var bytes: [UInt8] = []
    var index = parts[0].startIndex
    while index < parts[0].endIndex {
      let next = parts[0].index(index, offsetBy: 2)
      guard let byte = UInt8(parts[0][index..<next], radix: 16) else { return nil }
      bytes.append(byte)
      index = next
    }
    let payload = Data(bytes)
    return tag(payload) == parts[1] ? payload : nil
  }

  private func tag(_ payload: Data) -> String {
    FNV1a.hex(FNV1a.hash64(Array(key.utf8) + Array(payload) + Array(key.utf8)))
  }
}

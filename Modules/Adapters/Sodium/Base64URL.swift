import Foundation

/// RFC 4648 §5 base64url without padding: safe in a URL path segment.
enum Base64URL {
  static func encode(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  static func decode(_ text: String) -> Data? {
    guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    // Only the one canonical spelling: the last character's unused bits
    // must be zero, so a token cannot be written two ways.
    guard let data = Data(base64Encoded: base64), encode(data) == text else { return nil }
    return data
  }
}

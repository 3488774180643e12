import Domain
import Foundation
import Sodium

/// A person's OwnTracks payload encryption (`people.NAME.encryptionKey`,
/// the same secret as the app's "encryption key"): a report sent as
/// `{"_type":"encrypted","data":…}` is opened before the codec reads it,
/// and what goes back to that phone is sealed the same way (on HTTP the
/// answer's array in one envelope, as OwnTracks' Recorder answers; on
/// MQTT each command). Without a key, an encrypted report is refused with
/// what to set.
struct OwnTracksEnvelope: Sendable {
  let person: String
  private let box: SecretBox?

  init(person: String, secret: String) {
    self.person = person
    box = secret.isEmpty ? nil : SecretBox(secret: secret)
  }

  struct Refusal: Error, CustomStringConvertible {
    let description: String
  }

  /// The report as the codec reads it, and whether it came sealed.
  func open(_ body: Data) throws -> (body: Data, sealed: Bool) {
    // Most reports are plain: look for the envelope's type before parsing.
    guard body.range(of: Data(#""encrypted""#.utf8)) != nil,
      case .object(let object)? = try? JSONParser.parse(body, maxDepth: 4),
      case .string("encrypted")? = object["_type"]
    else { return (body, false) }
    guard let box else {
      throw Refusal(
        description:
          "the app sends encrypted payloads: set people.\(person).encryptionKey to the app's encryption key, or clear the key in the app")
    }
    guard case .string(let data)? = object["data"] else { throw Refusal(description: "an encrypted payload needs its data as a string") }
    guard let plain = box.open(data) else {
      throw Refusal(description: "the encrypted payload does not open with people.\(person).encryptionKey: the app's encryption key differs")
    }
    return (plain, true)
  }

  /// `message` (a JSON message or array) in an envelope, when this person has a key.
  func seal(_ message: Data) -> Data {
    guard let box else { return message }
    return Data(JSONValue.object(["_type": .string("encrypted"), "data": .string(box.seal(message))]).compactText.utf8)
  }
}

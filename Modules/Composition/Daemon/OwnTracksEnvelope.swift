import Domain
import Foundation
import Geofencing
import OwnTracks
import Sodium

/// A person's OwnTracks payload encryption (`people.NAME.encryptionKey`,
/// the same secret as the app's "encryption key"): a report sent as
/// `{"_type":"encrypted","data":…}` is opened and what is inside decoded,
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

  /// The report `body` carries, opened first when the codec finds it
  /// sealed (a plain one is read once, as without a key); with the plain
  /// message (what a cluster queues) and whether it came sealed.
  func decode(_ body: Data, now: Date) throws -> (report: PhoneReport, body: Data, sealed: Bool) {
    do {
      return (try OwnTracksCodec.decode(body, now: now), body, false)
    } catch let error as OwnTracksError where error.sealed {
      let plain = try open(body)
      do {
        return (try OwnTracksCodec.decode(plain, now: now), plain, true)
      } catch let inner as OwnTracksError where inner.sealed {
        throw Refusal(description: "an encrypted payload inside an encrypted payload is not a report")
      }
    }
  }

  /// What a sealed message holds.
  private func open(_ body: Data) throws -> Data {
    guard let box else {
      throw Refusal(
        description:
          "the app sends encrypted payloads: set people.\(person).encryptionKey to the app's encryption key, or clear the key in the app")
    }
    guard case .object(let object)? = try? JSONParser.parse(body, maxDepth: 4), case .string(let data)? = object["data"] else {
      throw Refusal(description: "an encrypted payload needs its data as a string")
    }
    guard let plain = box.open(data) else {
      throw Refusal(description: "the encrypted payload does not open with people.\(person).encryptionKey: the app's encryption key differs")
    }
    return plain
  }

  /// `message` (a JSON message or array) in an envelope, when this person has a key.
  func seal(_ message: Data) -> Data {
    guard let box else { return message }
    return Data(JSONValue.object(["_type": .string("encrypted"), "data": .string(box.seal(message))]).compactText.utf8)
  }
}

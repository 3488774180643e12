import Geofencing
import Foundation

/// How whilehered journals a person's last fix (`fix.NAME` in the daemon's
/// store): what a restart or the worker taking the person over plans from.
extension Person {
  /// Letters, digits, `-`, `_` and `.`: a device name written into the journal as it is.
  static func isPlain(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 64
      && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) }
  }

  /// The last fix as journalled (`fix.NAME` in the daemon's store).
  struct SavedFix: Codable, Equatable {
    let latitude: Double
    let longitude: Double
    let accuracy: Double?
    /// Epoch seconds.
    let at: Double
    /// Percent, as the phone reported it with this fix, and whether it was charging.
    var battery: Int? = nil
    var charging: Bool? = nil
    /// The device that reported it, when it was named.
    var device: String? = nil
    /// In a cluster: the report's sequence in the queue.
    var queued: UInt64? = nil

    /// The `queued` of a journalled fix without decoding the rest: asked
    /// of the journal for every report a cluster worker applies.
    static func queued(inJournalText text: String) -> UInt64? {
      guard let key = text.utf8.firstRange(of: #""queued":"#.utf8) else { return nil }
      let digits = text.utf8[key.upperBound...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
      return UInt64(Substring(digits))
    }

    /// The JSON a `SavedFix` decodes from, for `fix` from `device` (`queued`: its sequence in a cluster's queue).
    static func journalText(_ fix: PhoneFix, device: String?, queued: UInt64?) -> String {
      // Formatted by hand: JSONEncoder was a fifth of the cost of a report.
      let accuracy = fix.accuracy.map { ",\"accuracy\":\($0)" } ?? ""
      // The phone's battery as it said, for its status (-1: it did not know).
      let battery = fix.battery.flatMap { $0 >= 0 ? ",\"battery\":\($0)" : nil } ?? ""
      let charging = fix.charging.map { ",\"charging\":\($0)" } ?? ""
      // A name that needs escaping is left out rather than escaped here.
      let named = device.flatMap { Person.isPlain($0) ? ",\"device\":\"\($0)\"" : nil } ?? ""
      let sequence = queued.map { ",\"queued\":\($0)" } ?? ""
      return
        "{\"latitude\":\(fix.coordinate.latitude),\"longitude\":\(fix.coordinate.longitude)\(accuracy),\"at\":\(fix.at.timeIntervalSince1970)\(battery)\(charging)\(named)\(sequence)}"
    }
  }
}

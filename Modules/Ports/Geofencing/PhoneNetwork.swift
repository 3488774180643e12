import Foundation

/// The network a phone was on when it sent a location (OwnTracks Android's
/// extended data: `conn` and, on Wi-Fi, the access point's `BSSID`). A
/// phone that stays joined to one access point stays within its reach.
public enum PhoneNetwork: Equatable, Sendable {
  /// Joined to the Wi-Fi access point with this BSSID (lowercased).
  case wifi(String)
  /// On mobile data or offline: joined to no Wi-Fi.
  case noWifi
}

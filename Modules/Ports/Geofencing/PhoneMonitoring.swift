/// A phone app's location mode as the server can set it (OwnTracks'
/// `monitoring` with its locator settings): how often the phone reports
/// without being asked.
public struct PhoneMonitoring: Equatable, Sendable {
  /// OwnTracks' values: −1 quiet, 0 manual, 1 significant, 2 move.
  public let mode: Int
  /// In move mode: a report at least this often (seconds)…
  public let interval: Int?
  /// …and whenever the phone moved this far (metres).
  public let displacement: Int?

  public init(mode: Int, interval: Int? = nil, displacement: Int? = nil) {
    self.mode = mode
    self.interval = interval
    self.displacement = displacement
  }

  public static let quiet = -1
  public static let manual = 0
  public static let significant = 1
  public static let move = 2

  /// Frequent reports for a precise session.
  public static func move(interval: Int, displacement: Int) -> PhoneMonitoring {
    PhoneMonitoring(mode: move, interval: interval, displacement: displacement)
  }
}

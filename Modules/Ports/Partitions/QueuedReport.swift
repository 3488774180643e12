import Foundation

/// One phone report waiting in its person's partition of a `ReportQueue`.
public struct QueuedReport: Equatable, Sendable {
  public let partition: Int
  /// Its place in the queue: grows with each report of the partition and
  /// never changes, so it is the report's stable id.
  public let sequence: UInt64
  public let person: String
  /// Which of the person's devices sent it and how, as the front that
  /// received it names it (one line, no tab); "" when unknown.
  public let device: String
  /// The report as the phone sent it (OwnTracks JSON).
  public let body: Data

  public init(partition: Int, sequence: UInt64, person: String, device: String = "", body: Data) {
    self.partition = partition
    self.sequence = sequence
    self.person = person
    self.device = device
    self.body = body
  }
}

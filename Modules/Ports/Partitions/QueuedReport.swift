import Foundation

/// One phone report waiting in its person's partition of a `ReportQueue`.
public struct QueuedReport: Equatable, Sendable {
  public let partition: Int
  /// Its place in the queue: grows with each report of the partition and
  /// never changes, so it is the report's stable id.
  public let sequence: UInt64
  public let person: String
  /// The report as the phone sent it (OwnTracks JSON).
  public let body: Data

  public init(partition: Int, sequence: UInt64, person: String, body: Data) {
    self.partition = partition
    self.sequence = sequence
    self.person = person
    self.body = body
  }
}

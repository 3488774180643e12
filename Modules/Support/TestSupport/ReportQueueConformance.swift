import Foundation
import Partitions

/// The shared suite every `ReportQueue` passes: reports land in their
/// person's partition and come out in order with their bytes intact;
/// fetching continues where the last fetch ended, `rewind` goes back to
/// the last acknowledged report, acknowledged reports never come again
/// (not even to a queue opened anew on the same data), and an empty
/// partition answers empty within the wait.
public enum ReportQueueConformance {
  /// `make` gives an empty queue; `reopen` a new handle on the same data
  /// (another process's view), or the same object for a queue in memory.
  public static func verify(make: () throws -> any ReportQueue, reopen: (any ReportQueue) throws -> any ReportQueue) throws {
    try routingAndOrder(try make())
    try continuingAndRewinding(try make(), reopen: reopen)
    try emptyAndRefused(try make())
  }

  static func routingAndOrder(_ queue: any ReportQueue) throws {
    let people = ["alice", "bob", "carol", "dave-2", "eve_x", "frank"]
    var sent: [String: [Data]] = [:]
    for round in 0..<5 {
      for person in people {
        let body = Data("{\"_type\":\"location\",\"n\":\(round),\"who\":\"\(person)\"}\n\u{0}".utf8)
        let report = try queue.publish(person: person, device: "http/phone-\(round)", body: body)
        try expect(report.partition == Partitioning.partition(of: person, count: queue.partitions), "routing", "\(person) went to \(report.partition)")
        sent[person, default: []].append(body)
      }
    }
    var got: [String: [Data]] = [:]
    var devices: [String: [String]] = [:]
    for partition in 0..<queue.partitions {
      var last: UInt64 = 0
      for report in try queue.fetch(partition: partition, limit: 100, wait: 1) {
        try expect(report.partition == partition, "partition", "report \(report.sequence) of \(report.partition) fetched from \(partition)")
        try expect(Partitioning.partition(of: report.person, count: queue.partitions) == partition, "routing", "\(report.person) read from \(partition)")
        try expect(report.sequence > last, "order", "sequence \(report.sequence) after \(last)")
        last = report.sequence
        got[report.person, default: []].append(report.body)
        devices[report.person, default: []].append(report.device)
      }
    }
    try expect(got == sent, "every report once, in order, intact", "sent \(sent.mapValues(\.count)), got \(got.mapValues(\.count))")
    try expect(devices.values.allSatisfy { $0 == (0..<5).map { "http/phone-\($0)" } }, "device", "\(devices)")
    var refused = false
    do { _ = try queue.publish(person: "eve\tx", device: "", body: Data()) } catch { refused = true }
    try expect(refused, "names", "a name with a tab was queued")
  }

  static func continuingAndRewinding(_ queue: any ReportQueue, reopen: (any ReportQueue) throws -> any ReportQueue) throws {
    let partition = Partitioning.partition(of: "alice", count: queue.partitions)
    let sequences = try (0..<5).map { try queue.publish(person: "alice", body: Data("r\($0)".utf8)).sequence }
    func fetch(_ queue: any ReportQueue, _ limit: Int) throws -> [UInt64] {
      try queue.fetch(partition: partition, limit: limit, wait: 1).map(\.sequence)
    }
    try expect(try fetch(queue, 2) == Array(sequences[0..<2]), "fetch", "the first two")
    try expect(try fetch(queue, 2) == Array(sequences[2..<4]), "continue", "a second fetch did not continue after the first")
    try queue.rewind(partition: partition)
    try expect(try fetch(queue, 10) == sequences, "rewind", "a rewind did not go back to the first unacknowledged")
    try queue.acknowledge(partition: partition, through: sequences[1])
    try queue.rewind(partition: partition)
    try expect(try fetch(queue, 10) == Array(sequences[2...]), "acknowledge", "acknowledged reports came again")
    try queue.acknowledge(partition: partition, through: sequences[2])
    let again = try reopen(queue)
    try again.rewind(partition: partition)
    try expect(try fetch(again, 10) == Array(sequences[3...]), "durable", "a queue opened anew did not start after the last acknowledged")
  }

  static func emptyAndRefused(_ queue: any ReportQueue) throws {
    let started = Date()
    try expect(try queue.fetch(partition: 0, limit: 10, wait: 0.3).isEmpty, "empty", "an empty partition gave reports")
    try expect(Date().timeIntervalSince(started) < 5, "empty", "an empty fetch waiting 0.3 s took \(Date().timeIntervalSince(started)) s")
    var refused = false
    do { _ = try queue.fetch(partition: queue.partitions, limit: 1, wait: 0) } catch { refused = true }
    try expect(refused, "partition range", "partition \(queue.partitions) of \(queue.partitions) was fetched")
    let report = try queue.publish(person: "bob", body: Data())
    refused = false
    do { try queue.acknowledge(partition: report.partition, through: report.sequence) } catch { refused = true }
    try expect(refused, "acknowledge unfetched", "a report never fetched was acknowledged")
  }
}

import CNATS
import Domain
import Foundation
import Locking
import Partitions

/// Phone reports on JetStream: a work-queue stream beside the logs
/// (`WHILEHERE` → `WHILEHERE-ingest`, subjects `wh.WHILEHERE-ingest.N.…`,
/// replicated as the logs are), so a report is gone once acknowledged and
/// none is kept longer than `retention` (raw positions); one durable
/// consumer per partition (`WHILEHERE-part-N`, all of `wh.….N.>`). A
/// front's message (`….N.front`) is the person's name, a tab, the device,
/// a newline and the report as the phone sent it. A phone publishing to
/// NATS's own MQTT listener lands on `….N.mqtt.USER.DEVICE` by the
/// server's mapping (`mqttMappings`), its report as it sent it.
///
/// Publishing returns after JetStream's acknowledgement (a quorum of the
/// replicas). A partition's consumer is made anew at its first fetch and
/// after `rewind`, starting at its first unacknowledged report, so a
/// worker taking a partition over sees first what the last owner fetched
/// and did not acknowledge; acknowledging through a report acknowledges
/// each fetched one up to it and waits for the server's answer to the last.
public final class NATSReportQueue: ReportQueue {
  public let partitions: Int
  public let location: NATSLocation
  private let ackWaitNanos: Int64
  /// Several connections, each used by one publish at a time: a publish
  /// waits for JetStream's acknowledgement, and the fronts' requests
  /// should not queue behind one another's round trips.
  private let publishers: NATSConnectionPool<NATSConnection>
  private let consumer: Locked<Consumers>

  /// The consuming connection, each partition's subscription, and the
  /// messages fetched and not yet acknowledged (kept to acknowledge them).
  private final class Consumers {
    let connection: NATSConnection
    var subscriptions: [Int: OpaquePointer] = [:]
    var fetched: [Int: [(sequence: UInt64, message: OpaquePointer)]] = [:]

    init(_ connection: NATSConnection) { self.connection = connection }

    func forget(_ partition: Int) {
      for entry in fetched.removeValue(forKey: partition) ?? [] { natsMsg_Destroy(entry.message) }
      if let subscription = subscriptions.removeValue(forKey: partition) { natsSubscription_Destroy(subscription) }
    }

    deinit {
      for partition in Array(subscriptions.keys) + Array(fetched.keys) { forget(partition) }
      connection.close()
    }
  }

  public init(
    _ location: NATSLocation, partitions: Int, ackWait: TimeInterval = 60, retention: TimeInterval = 86_400, publishingConnections: Int = 8
  ) throws {
    guard partitions > 0, partitions <= 4096 else { throw QueueRefusal(description: "partitions must be 1-4096, not \(partitions)") }
    self.location = location
    self.partitions = partitions
    ackWaitNanos = Int64(ackWait * 1e9)
    let publishing = try NATSConnection(servers: location.servers, timeoutMilliseconds: 5000)
    var code = jsErrCode(0)
    let status = whilehere_nats_work_queue(
      publishing.context, "\(location.stream)-ingest", "wh.\(location.stream)-ingest.>", Int64(location.replicas), Int64(retention * 1e9), &code)
    guard status == NATS_OK else {
      throw NATSConnection.Failure(operation: "create the stream \(location.stream)-ingest", status: status, code: code, detail: NATSConnection.lastError())
    }
    var first: NATSConnection? = publishing
    publishers = try NATSConnectionPool(count: publishingConnections) {
      defer { first = nil }
      return try first ?? NATSConnection(servers: location.servers, timeoutMilliseconds: 5000)
    }
    consumer = Locked(Consumers(try NATSConnection(servers: location.servers, timeoutMilliseconds: 5000)))
  }

  private var stream: String { "\(location.stream)-ingest" }
  private func subject(_ partition: Int) -> String { "wh.\(location.stream)-ingest.\(partition).front" }
  private func everything(_ partition: Int) -> String { "wh.\(location.stream)-ingest.\(partition).>" }

  /// The subject mappings that file an OwnTracks phone's MQTT reports to
  /// NATS's MQTT listener (`owntracks/USER/DEVICE` and `…/event`) on the
  /// user's partition of stream `stream`'s queue: the lines of a
  /// nats-server `mappings` block (Docs/Cluster.md). nats-server's
  /// `partition()` is the same hash as `Partitioning.partition`.
  /// Every subject `person`'s MQTT reports are filed under, any partition.
  static func mqttSubjects(stream: String, person: String) -> String { "wh.\(stream)-ingest.*.mqtt.\(person).>" }

  public static func mqttMappings(stream: String, partitions: Int) -> [String] {
    let destination = "wh.\(stream)-ingest.{{partition(\(partitions),1)}}.mqtt.{{wildcard(1)}}.{{wildcard(2)}}"
    return ["\"owntracks.*.*\": \"\(destination)\"", "\"owntracks.*.*.event\": \"\(destination).event\""]
  }

  public func publish(person: String, device: String, body: Data) throws -> QueuedReport {
    guard !person.isEmpty, !Self.unwritable(person), !Self.unwritable(device) else {
      throw QueueRefusal(description: "a person's and a device's names must be one line without tabs, not '\(person)' '\(device)'")
    }
    let partition = Partitioning.partition(of: person, count: partitions)
    let message = Data((person + "\t" + device + "\n").utf8) + body
    let subject = subject(partition)
    let sequence = try publishers.withOne { connection in
      var sequence: UInt64 = 0
      var code = jsErrCode(0)
      let status = message.withUnsafeBytes { bytes in
        whilehere_nats_publish(
          connection.context, subject, bytes.baseAddress, Int32(bytes.count), 0, false, Self.messageID(of: message), true, &sequence, &code)
      }
      guard status == NATS_OK else {
        throw NATSConnection.Failure(operation: "queue a report on \(subject)", status: status, code: code, detail: NATSConnection.lastError())
      }
      return sequence
    }
    return QueuedReport(partition: partition, sequence: sequence, person: person, device: device, body: body)
  }

  /// A report's id for JetStream's duplicate window: the same person,
  /// device and bytes are the same report (an OwnTracks app sending a
  /// message again sends it unchanged), whatever path it came by. FNV-1a
  /// 64, CRC-32 and the length: ids of one person's different reports
  /// within the window do not meet.
  static func messageID(of message: Data) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in message { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    let crc = message.withUnsafeBytes { CRC32.checksum($0) }
    return String(hash, radix: 16) + "-" + String(crc, radix: 16) + "-" + String(message.count)
  }

  public func fetch(partition: Int, limit: Int, wait: TimeInterval) throws -> [QueuedReport] {
    try check(partition)
    let stream = stream
    let subject = everything(partition)
    let ackWait = ackWaitNanos
    return try consumer.withLock { consumers in
      if consumers.subscriptions[partition] == nil {
        var subscription: OpaquePointer?
        var code = jsErrCode(0)
        let status = whilehere_nats_partition_consumer(&subscription, consumers.connection.context, stream, "\(stream)-part-\(partition)", subject, ackWait, &code)
        guard status == NATS_OK, let subscription else {
          throw NATSConnection.Failure(operation: "consume partition \(partition)", status: status, code: code, detail: NATSConnection.lastError())
        }
        consumers.subscriptions[partition] = subscription
      }
      var list = natsMsgList()
      var code = jsErrCode(0)
      let status = natsSubscription_Fetch(&list, consumers.subscriptions[partition], Int32(max(1, limit)), max(1, Int64(wait * 1000)), &code)
      if status == NATS_TIMEOUT { return [] }
      guard status == NATS_OK else {
        throw NATSConnection.Failure(operation: "fetch partition \(partition)", status: status, code: code, detail: NATSConnection.lastError())
      }
      defer { natsMsgList_Destroy(&list) }
      var reports: [QueuedReport] = []
      for index in 0..<Int(list.Count) {
        guard let message = list.Msgs[index] else { continue }
        // Kept to acknowledge it; the list must not destroy it.
        list.Msgs[index] = nil
        var sequence: UInt64 = 0
        guard whilehere_nats_stream_sequence(message, &sequence) == NATS_OK else {
          natsMsg_Destroy(message)
          continue
        }
        consumers.fetched[partition, default: []].append((sequence, message))
        let length = Int(natsMsg_GetDataLength(message))
        let data = length > 0 ? Data(bytes: natsMsg_GetData(message), count: length) : Data()
        if let (person, device) = Self.mqttNames(natsMsg_GetSubject(message).map { String(cString: $0) } ?? "") {
          reports.append(QueuedReport(partition: partition, sequence: sequence, person: person, device: "mqtt/" + device, body: data))
          continue
        }
        // Not written by `publish` (no name line): an empty name, which the applier refuses.
        let newline = data.firstIndex(of: 10)
        let names = newline.map { String(decoding: data[data.startIndex..<$0], as: UTF8.self) } ?? ""
        let tab = names.firstIndex(of: "\t")
        let person = tab.map { String(names[..<$0]) } ?? names
        let device = tab.map { String(names[names.index(after: $0)...]) } ?? ""
        let body = newline.map { data[data.index(after: $0)...] } ?? data
        reports.append(QueuedReport(partition: partition, sequence: sequence, person: person, device: device, body: Data(body)))
      }
      return reports
    }
  }

  public func acknowledge(partition: Int, through sequence: UInt64) throws {
    try check(partition)
    try consumer.withLock { consumers in
      let fetched = consumers.fetched[partition] ?? []
      guard let entry = fetched.first(where: { $0.sequence == sequence }) else {
        throw QueueRefusal(description: "report \(sequence) of partition \(partition) was not fetched")
      }
      // Each one before it goes out without waiting; the last waits for
      // the server's answer, which comes after theirs (one connection, in order).
      let done = fetched.filter { $0.sequence <= sequence }
      for earlier in done where earlier.sequence < sequence {
        try NATSConnection.check("acknowledge report \(earlier.sequence) of partition \(partition)", natsMsg_Ack(earlier.message, nil))
      }
      var code = jsErrCode(0)
      let status = natsMsg_AckSync(entry.message, nil, &code)
      guard status == NATS_OK else {
        throw NATSConnection.Failure(operation: "acknowledge report \(sequence) of partition \(partition)", status: status, code: code, detail: NATSConnection.lastError())
      }
      for entry in done { natsMsg_Destroy(entry.message) }
      consumers.fetched[partition] = fetched.filter { $0.sequence > sequence }
    }
  }

  public func rewind(partition: Int) throws {
    try check(partition)
    consumer.withLock { $0.forget(partition) }
  }

  /// The user and device of a report NATS's MQTT listener filed
  /// (`wh.S-ingest.N.mqtt.USER.DEVICE[.event]`), or nil for a front's.
  static func mqttNames(_ subject: String) -> (person: String, device: String)? {
    let tokens = subject.split(separator: ".", omittingEmptySubsequences: false)
    guard tokens.count >= 6, tokens.count <= 7, tokens[3] == "mqtt", tokens.count == 6 || tokens[6] == "event" else { return nil }
    return (String(tokens[4]), String(tokens[5]))
  }

  private func check(_ partition: Int) throws {
    guard (0..<partitions).contains(partition) else { throw QueueRefusal(description: "partition \(partition) is not one of 0..<\(partitions)") }
  }
}

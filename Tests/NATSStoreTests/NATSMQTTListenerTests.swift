import Foundation
import MQTT
import NATSStore
import Partitions
import Testing
import TestSupport

/// OwnTracks phones publishing to nats-server's own MQTT listener: the
/// server's subject mapping (`NATSReportQueue.mqttMappings`) files each
/// report on its user's partition of the queue, where a worker fetches it
/// named by its topic, with no whilehered front in between.
@Suite(.serialized) struct NATSMQTTListenerTests {
  static func server(mqtt: Int, partitions: Int) throws -> NATSServer {
    let mappings = NATSReportQueue.mqttMappings(stream: "phones", partitions: partitions)
    return try NATSServer { _ in "mqtt { port: \(mqtt) }\nmappings = {\n" + mappings.joined(separator: "\n") + "\n}\n" }
  }

  /// Every report a partition holds, fetched until `count` arrived in all (bounded).
  static func drain(_ queue: NATSReportQueue, count: Int) throws -> [Int: [QueuedReport]] {
    var found: [Int: [QueuedReport]] = [:]
    for _ in 0..<40 where found.values.map(\.count).reduce(0, +) < count {
      for partition in 0..<queue.partitions {
        let reports = try queue.fetch(partition: partition, limit: 100, wait: 0.05)
        found[partition, default: []] += reports
        if let last = reports.last { try queue.acknowledge(partition: partition, through: last.sequence) }
      }
    }
    return found
  }

  @Test func aPhonesReportsLandOnItsPersonsPartitionNamedByTheirTopic() throws {
    let mqtt = try LoopbackPort.free()
    let server = try Self.server(mqtt: mqtt, partitions: 8)
    let queue = try NATSReportQueue(try NATSLocation("\(server.url);stream=phones"), partitions: 8)
    let people = (0..<16).map { "person\($0)" } + ["Émile", "alice"]
    let phone = MosquittoBroker(options: .init(host: "127.0.0.1", port: mqtt, clientID: "phones"))
    try phone.connect(subscriptions: []) { _, _ in }
    defer { phone.disconnect() }
    let location = Data(#"{"_type":"location","lat":60.17,"lon":24.94,"tst":1780000000}"#.utf8)
    let transition = Data(#"{"_type":"transition","event":"enter","desc":"home","tst":1780000000,"lat":60.17,"lon":24.94}"#.utf8)
    for person in people { try phone.publish(topic: "owntracks/\(person)/phone", payload: location) }
    try phone.publish(topic: "owntracks/alice/watch/event", payload: transition)
    // Not an OwnTracks report topic: no mapping, not queued.
    try phone.publish(topic: "owntracks/alice/phone/info", payload: Data("{}".utf8))
    let found = try Self.drain(queue, count: people.count + 1)
    #expect(found.values.map(\.count).reduce(0, +) == people.count + 1)
    for (partition, reports) in found {
      for report in reports {
        #expect(Partitioning.partition(of: report.person, count: 8) == partition, "\(report.person) filed on \(partition)")
      }
    }
    let all = found.values.flatMap { $0 }
    #expect(Set(all.filter { $0.device == "mqtt/phone" }.map(\.person)) == Set(people))
    #expect(all.filter { $0.device == "mqtt/phone" }.allSatisfy { $0.body == location })
    let watch = all.first { $0.device == "mqtt/watch" }
    #expect(watch?.person == "alice" && watch?.body == transition, "an event topic's report, its device from the topic")
  }

  /// A front's reports and a phone's MQTT reports share a partition's
  /// consumer, in the order the server stored them.
  @Test func frontsAndPhonesShareAPartitionInOrder() throws {
    let mqtt = try LoopbackPort.free()
    let server = try Self.server(mqtt: mqtt, partitions: 4)
    let queue = try NATSReportQueue(try NATSLocation("\(server.url);stream=phones"), partitions: 4)
    let phone = MosquittoBroker(options: .init(host: "127.0.0.1", port: mqtt, clientID: "alice-phone"))
    try phone.connect(subscriptions: []) { _, _ in }
    defer { phone.disconnect() }
    _ = try queue.publish(person: "alice", device: "http/phone", body: Data("1".utf8))
    try phone.publish(topic: "owntracks/alice/phone", payload: Data("2".utf8))
    let found = try Self.drain(queue, count: 2)
    let reports = found[Partitioning.partition(of: "alice", count: 4)] ?? []
    #expect(reports.map { String(decoding: $0.body, as: UTF8.self) } == ["1", "2"])
    #expect(reports.map(\.device) == ["http/phone", "mqtt/phone"])
  }

  @Test func namesNATSCannotTakeAsMQTTUsersAreRefused() throws {
    for name in ["dr.who", "a b", "x>", "*", "", "a/b", #"say"hi"#] {
      #expect(throws: NATSMQTTAccess.Refusal.self, "\(name)") { try NATSMQTTAccess.check(person: name) }
    }
    try NATSMQTTAccess.check(person: "alice-2_B")
  }

  /// Passwords in server URLs are left out wherever a location is shown.
  @Test func shownLocationsLeaveOutPasswords() throws {
    let location = try NATSLocation("nats://w:secret@10.0.0.1:4222,nats://w:other@10.0.0.2:4222;stream=work")
    #expect(location.shown == "nats://w:***@10.0.0.1:4222,nats://w:***@10.0.0.2:4222;stream=work;log=main;replicas=1")
    #expect(NATSLocation.redacting("nats://10.0.0.1:4222") == "nats://10.0.0.1:4222")
    #expect(location.argument.contains("secret"), "the argument itself still connects")
  }
}

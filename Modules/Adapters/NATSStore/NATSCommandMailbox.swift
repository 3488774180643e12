import Foundation
import Locking
import Partitions

/// Messages for people's phones in a JetStream key-value bucket beside the
/// stream (`WHILEHERE` → `WHILEHERE-mail`, one key per person, replicated
/// as the stream is): a person's messages are one value, one message a
/// line. Leaving and collecting are compare-and-swap on the key's
/// revision, retried when another front or worker wrote in between.
public final class NATSCommandMailbox: CommandMailbox {
  public let location: NATSLocation
  /// Several connections to the bucket: every HTTP answer collects, and
  /// one round trip should not wait for another's.
  private let buckets: NATSConnectionPool<NATSBucket>

  public init(_ location: NATSLocation, connections: Int = 8) throws {
    self.location = location
    buckets = try NATSConnectionPool(count: connections) { try NATSBucket("\(location.stream)-mail", on: location) }
  }

  public func leave(_ messages: [Data], for person: String) throws {
    guard !messages.isEmpty else { return }
    guard NATSLocation.isToken(person) else { throw QueueRefusal(description: "'\(person)' cannot name a mailbox") }
    guard !messages.contains(where: { $0.contains(10) }) else { throw QueueRefusal(description: "a message for \(person) spans lines") }
    let added = Data(messages.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n").utf8)
    try swap(person) { current in current.isEmpty ? added : current + Data([10]) + added }
  }

  public func collect(for person: String) throws -> [Data] {
    guard NATSLocation.isToken(person) else { return [] }
    var taken = Data()
    try swap(person) { current in
      taken = current
      return Data()
    }
    return taken.isEmpty ? [] : taken.split(separator: 10).map { Data($0) }
  }

  /// Replaces the key's value with `change(value)`, again from a fresh
  /// read whenever another writer got there first.
  private func swap(_ key: String, _ change: (Data) -> Data) throws {
    try buckets.withOne { bucket in
      for _ in 0..<100 {
        let current = try bucket.read(key)
        let next = change(current?.value ?? Data())
        if current == nil && next.isEmpty { return }
        if try bucket.write(key, next, at: current?.revision) != nil { return }
      }
      throw QueueRefusal(description: "the mailbox of \(key) kept changing under 100 writes")
    }
  }
}

import Foundation

/// A publish/subscribe broker connection (MQTT through libmosquitto in
/// production), as OwnTracks phones in MQTT mode use.
///
/// Contract: `connect` subscribes to the filters (MQTT `+`/`#` wildcards)
/// and keeps them across reconnects; each received message is handed to
/// `receive` once, on the broker's thread, in arrival order; `publish`
/// queues a message with at-least-once delivery (QoS 1) and never blocks
/// for long; `disconnect` stops delivery and is idempotent.
public protocol MessageBroker: AnyObject, Sendable {
  func connect(subscriptions: [String], receive: @escaping @Sendable (_ topic: String, _ payload: Data) -> Void) throws
  func publish(topic: String, payload: Data) throws
  func disconnect()
}

/// Why a broker connection failed, naming the broker.
public struct MessageBrokerError: Error, Equatable, Sendable, CustomStringConvertible {
  public let reason: String
  public init(_ reason: String) { self.reason = reason }
  public var description: String { reason }
}

/// MQTT topic filters: `+` matches one level, `#` the rest.
public enum TopicFilter {
  public static func matches(_ filter: String, _ topic: String) -> Bool {
    let filterLevels = filter.split(separator: "/", omittingEmptySubsequences: false)
    let topicLevels = topic.split(separator: "/", omittingEmptySubsequences: false)
    for (index, level) in filterLevels.enumerated() {
      if level == "#" { return true }
      guard index < topicLevels.count else { return false }
      if level != "+" && level != topicLevels[index] { return false }
    }
    return filterLevels.count == topicLevels.count
  }
}

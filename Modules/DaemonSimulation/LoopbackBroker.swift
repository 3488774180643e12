import Foundation
import Gateway

/// An MQTT broker inside one simulated run: what a phone publishes reaches
/// the daemon's subscription at once, and what the daemon publishes goes
/// to `deliver`, synchronously, so every run is repeatable.
final class LoopbackBroker: MessageBroker, @unchecked Sendable {
  private let lock = NSLock()
  private var subscriber: (@Sendable (String, Data) -> Void)?
  private var filters: [String] = []
  /// Messages the daemon publishes (its commands on `…/cmd`).
  var deliver: (String, Data) -> Void = { _, _ in }

  func connect(subscriptions: [String], receive: @escaping @Sendable (String, Data) -> Void) throws {
    lock.withLock {
      filters = subscriptions
      subscriber = receive
    }
  }

  func publish(topic: String, payload: Data) throws { deliver(topic, payload) }

  func disconnect() { lock.withLock { subscriber = nil } }

  /// A phone's message, to whoever subscribed to its topic.
  func phonePublished(topic: String, payload: Data) {
    let receiver = lock.withLock { filters.contains { TopicFilter.matches($0, topic) } ? subscriber : nil }
    receiver?(topic, payload)
  }
}

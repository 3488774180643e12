import Foundation
import Gateway
import Locking

/// An MQTT broker inside one simulated run: what a phone publishes reaches
/// the daemon's subscription at once, and what the daemon publishes waits
/// in an outbox the run takes after each call (`takePublished`), so every
/// run is repeatable and the phone is only touched by the run's own thread.
final class LoopbackBroker: MessageBroker, Sendable {
  private struct State {
    var subscriber: (@Sendable (String, Data) -> Void)?
    var filters: [String] = []
    var outbox: [(String, Data)] = []
  }

  private let state = Locked(State())

  func connect(subscriptions: [String], receive: @escaping @Sendable (String, Data) -> Void) throws {
    state.withLock {
      $0.filters = subscriptions
      $0.subscriber = receive
    }
  }

  func publish(topic: String, payload: Data) throws { state.withLock { $0.outbox.append((topic, payload)) } }

  func disconnect() { state.withLock { $0.subscriber = nil } }

  /// What the daemon published since the last call (its commands on `…/cmd`), in order.
  func takePublished() -> [(String, Data)] {
    state.withLock { state in
      defer { state.outbox = [] }
      return state.outbox
    }
  }

  /// A phone's message, to whoever subscribed to its topic.
  func phonePublished(topic: String, payload: Data) {
    let receiver = state.withLock { state in state.filters.contains { TopicFilter.matches($0, topic) } ? state.subscriber : nil }
    receiver?(topic, payload)
  }
}

import Foundation
import Gateway
import Locking

/// A broker in memory: every `Client` made from one hub sees what the
/// others publish, through MQTT topic filters, delivered in order on the
/// hub's own queue (as a real broker's thread would).
public final class InMemoryBroker: Sendable {
  private struct State {
    var clients: [ObjectIdentifier: Client] = [:]
    var log: [(topic: String, payload: Data)] = []
  }

  private let state = Locked(State())
  private let queue = DispatchQueue(label: "whilehere.test.broker")

  public init() {}

  /// Every message published so far, in order.
  public var published: [(topic: String, payload: Data)] { state.withLock { $0.log } }

  /// Waits until queued deliveries have run.
  public func settle() { queue.sync {} }

  public func client() -> Client { Client(hub: self) }

  fileprivate func attach(_ client: Client) { state.withLock { $0.clients[ObjectIdentifier(client)] = client } }
  fileprivate func detach(_ client: Client) { _ = state.withLock { $0.clients.removeValue(forKey: ObjectIdentifier(client)) } }

  fileprivate func route(topic: String, payload: Data) {
    let targets = state.withLock { state -> [Client] in
      state.log.append((topic, payload))
      return Array(state.clients.values)
    }
    queue.async {
      for client in targets { client.deliver(topic: topic, payload: payload) }
    }
  }

  public final class Client: MessageBroker, Sendable {
    private struct Connection {
      var filters: [String] = []
      var receive: (@Sendable (String, Data) -> Void)?
    }

    private let hub: InMemoryBroker
    private let connection = Locked(Connection())

    init(hub: InMemoryBroker) { self.hub = hub }

    public func connect(subscriptions: [String], receive: @escaping @Sendable (String, Data) -> Void) throws {
      try connection.withLock { (connection: inout Connection) throws(MessageBrokerError) in
        guard connection.receive == nil else { throw MessageBrokerError("already connected") }
        connection.filters = subscriptions
        connection.receive = receive
      }
      hub.attach(self)
    }

    public func publish(topic: String, payload: Data) throws {
      guard connection.withLock({ $0.receive != nil }) else { throw MessageBrokerError("not connected") }
      hub.route(topic: topic, payload: payload)
    }

    public func disconnect() {
      connection.withLock { $0.receive = nil }
      hub.detach(self)
    }

    fileprivate func deliver(topic: String, payload: Data) {
      let handler = connection.withLock { connection in
        connection.filters.contains { TopicFilter.matches($0, topic) } ? connection.receive : nil
      }
      handler?(topic, payload)
    }
  }
}

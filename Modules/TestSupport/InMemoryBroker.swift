import Foundation
import Gateway

/// A broker in memory: every `Client` made from one hub sees what the
/// others publish, through MQTT topic filters, delivered in order on the
/// hub's own queue (as a real broker's thread would).
public final class InMemoryBroker: @unchecked Sendable {
  private let lock = NSLock()
  private let queue = DispatchQueue(label: "whilehere.test.broker")
  private var clients: [ObjectIdentifier: Client] = [:]
  private var log: [(topic: String, payload: Data)] = []

  public init() {}

  /// Every message published so far, in order.
  public var published: [(topic: String, payload: Data)] { lock.withLock { log } }

  /// Waits until queued deliveries have run.
  public func settle() { queue.sync {} }

  public func client() -> Client { Client(hub: self) }

  fileprivate func attach(_ client: Client) { lock.withLock { clients[ObjectIdentifier(client)] = client } }
  fileprivate func detach(_ client: Client) { _ = lock.withLock { clients.removeValue(forKey: ObjectIdentifier(client)) } }

  fileprivate func route(topic: String, payload: Data) {
    let targets = lock.withLock { () -> [Client] in
      log.append((topic, payload))
      return Array(clients.values)
    }
    queue.async {
      for client in targets { client.deliver(topic: topic, payload: payload) }
    }
  }

  public final class Client: MessageBroker, @unchecked Sendable {
    private let hub: InMemoryBroker
    private let lock = NSLock()
    private var filters: [String] = []
    private var receive: (@Sendable (String, Data) -> Void)?

    init(hub: InMemoryBroker) { self.hub = hub }

    public func connect(subscriptions: [String], receive: @escaping @Sendable (String, Data) -> Void) throws {
      try lock.withLock {
        guard self.receive == nil else { throw MessageBrokerError("already connected") }
        filters = subscriptions
        self.receive = receive
      }
      hub.attach(self)
    }

    public func publish(topic: String, payload: Data) throws {
      guard lock.withLock({ receive != nil }) else { throw MessageBrokerError("not connected") }
      hub.route(topic: topic, payload: payload)
    }

    public func disconnect() {
      lock.withLock { receive = nil }
      hub.detach(self)
    }

    fileprivate func deliver(topic: String, payload: Data) {
      let handler = lock.withLock { filters.contains { TopicFilter.matches($0, topic) } ? receive : nil }
      handler?(topic, payload)
    }
  }
}

import Foundation
import Gateway
import MQTT
import TestSupport
import Testing

@Suite struct BrokerConformanceTests {
  @Test func theInMemoryBrokerPassesTheBrokerSuite() throws {
    let hub = InMemoryBroker()
    try GatewayConformance.verify(broker: { hub.client() }, settle: { _ in hub.settle() })
  }

  @Test(.enabled(if: MosquittoServer.isInstalled)) func libmosquittoWithARealBrokerPassesTheBrokerSuite() throws {
    let server = try MosquittoServer()
    var count = 0
    try GatewayConformance.verify(
      broker: {
        count += 1
        return MosquittoBroker(options: MosquittoBroker.Options(host: "127.0.0.1", port: server.port, clientID: "test-\(count)-\(UUID().uuidString.prefix(8))"))
      },
      settle: { condition in
        // A real broker on loopback: poll, with a generous bound for a loaded machine.
        for _ in 0..<5000 where !condition() { usleep(2000) }
      })
  }

  @Test func anUnreachableBrokerIsNamedInTheError() throws {
    let broker = MosquittoBroker(options: MosquittoBroker.Options(host: "127.0.0.1", port: 1, clientID: "unreachable"))
    do {
      try broker.connect(subscriptions: ["x"]) { _, _ in }
      Issue.record("connected to port 1")
    } catch {
      #expect("\(error)".contains("127.0.0.1:1"))
    }
  }
}

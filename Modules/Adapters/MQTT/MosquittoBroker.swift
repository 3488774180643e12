import CMosquitto
import Foundation
import Gateway

/// `MessageBroker` over libmosquitto: its own network thread
/// (`mosquitto_loop_start`), automatic reconnection with backoff, and
/// subscriptions renewed on every (re)connect.
public final class MosquittoBroker: MessageBroker, @unchecked Sendable {
  public struct Options: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var user: String?
    public var password: String?
    public var clientID: String
    /// TLS: the CA file turns it on; a client certificate and key are optional.
    public var caFile: String?
    public var certFile: String?
    public var keyFile: String?
    public var keepalive = 60

    public init(host: String, port: Int = 1883, user: String? = nil, password: String? = nil, clientID: String = "whilehered") {
      self.host = host
      self.port = port
      self.user = user
      self.password = password
      self.clientID = clientID
    }
  }

  public let options: Options
  private let lock = NSLock()
  private var handle: OpaquePointer?
  // Guarded by `lock`; read on libmosquitto's thread.
  private var subscriptions: [String] = []
  private var receive: (@Sendable (String, Data) -> Void)?
  /// Signalled when the first connection's subscriptions are acknowledged,
  /// so `connect` returns only once messages can arrive.
  private let subscribed = DispatchSemaphore(value: 0)
  private var awaitingAcks = 0
  private static let initialised: Bool = mosquitto_lib_init() == MOSQ_ERR_SUCCESS.rawValue

  public init(options: Options) {
    self.options = options
  }

  deinit { disconnect() }

  public func connect(subscriptions: [String], receive: @escaping @Sendable (String, Data) -> Void) throws {
    guard Self.initialised else { throw MessageBrokerError("libmosquitto could not initialise") }
    try lock.withLock {
      guard handle == nil else { throw MessageBrokerError("already connected") }
      self.subscriptions = subscriptions
      self.receive = receive
      guard let made = mosquitto_new(options.clientID, true, Unmanaged.passUnretained(self).toOpaque()) else {
        throw MessageBrokerError("cannot create an MQTT client")
      }
      if let user = options.user { mosquitto_username_pw_set(made, user, options.password) }
      if let caFile = options.caFile {
        let result = mosquitto_tls_set(made, caFile, nil, options.certFile, options.keyFile, nil)
        guard result == MOSQ_ERR_SUCCESS.rawValue else {
          mosquitto_destroy(made)
          throw MessageBrokerError("MQTT TLS files not usable (ca \(caFile)): \(Self.describe(result))")
        }
      }
      mosquitto_reconnect_delay_set(made, 1, 30, true)
      awaitingAcks = subscriptions.count
      mosquitto_connect_callback_set(made) { mosquitto, context, code in
        guard let mosquitto, let context, code == 0 else { return }
        let broker = Unmanaged<MosquittoBroker>.fromOpaque(context).takeUnretainedValue()
        for filter in broker.lock.withLock({ broker.subscriptions }) { mosquitto_subscribe(mosquitto, nil, filter, 1) }
      }
      mosquitto_subscribe_callback_set(made) { _, context, _, _, _ in
        guard let context else { return }
        let broker = Unmanaged<MosquittoBroker>.fromOpaque(context).takeUnretainedValue()
        let done = broker.lock.withLock { () -> Bool in
          guard broker.awaitingAcks > 0 else { return false }
          broker.awaitingAcks -= 1
          return broker.awaitingAcks == 0
        }
        if done { broker.subscribed.signal() }
      }
      mosquitto_message_callback_set(made) { _, context, message in
        guard let context, let message, let topic = message.pointee.topic else { return }
        let broker = Unmanaged<MosquittoBroker>.fromOpaque(context).takeUnretainedValue()
        let payload = message.pointee.payload.map { Data(bytes: $0, count: Int(message.pointee.payloadlen)) } ?? Data()
        broker.lock.withLock { broker.receive }?(String(cString: topic), payload)
      }
      let result = mosquitto_connect(made, options.host, Int32(options.port), Int32(options.keepalive))
      guard result == MOSQ_ERR_SUCCESS.rawValue else {
        mosquitto_destroy(made)
        throw MessageBrokerError("cannot connect to the MQTT broker \(options.host):\(options.port): \(Self.describe(result))")
      }
      guard mosquitto_loop_start(made) == MOSQ_ERR_SUCCESS.rawValue else {
        mosquitto_destroy(made)
        throw MessageBrokerError("cannot start the MQTT network thread")
      }
      handle = made
    }
    guard !subscriptions.isEmpty else { return }
    guard subscribed.wait(timeout: .now() + 10) == .success else {
      disconnect()
      throw MessageBrokerError("the MQTT broker \(options.host):\(options.port) did not acknowledge the subscriptions within 10 s")
    }
  }

  public func publish(topic: String, payload: Data) throws {
    guard let handle = lock.withLock({ handle }) else { throw MessageBrokerError("not connected") }
    let result = payload.withUnsafeBytes { bytes in
      mosquitto_publish(handle, nil, topic, Int32(bytes.count), bytes.baseAddress, 1, false)
    }
    // Not connected right now: libmosquitto keeps QoS 1 messages and sends them after reconnecting.
    guard result == MOSQ_ERR_SUCCESS.rawValue || result == MOSQ_ERR_NO_CONN.rawValue else {
      throw MessageBrokerError("cannot publish to \(topic): \(Self.describe(result))")
    }
  }

  public func disconnect() {
    let running: OpaquePointer? = lock.withLock {
      defer {
        handle = nil
        receive = nil
      }
      return handle
    }
    guard let running else { return }
    mosquitto_disconnect(running)
    mosquitto_loop_stop(running, false)
    mosquitto_destroy(running)
  }

  static func describe(_ code: Int32) -> String {
    mosquitto_strerror(code).map { String(cString: $0) } ?? "error \(code)"
  }
}

import CNATS
import Foundation

/// One connection to NATS (any of the listed servers, failing over to the
/// others) and its JetStream context: what the log and the lease store
/// both stand on. Not thread-safe; its owner serialises calls.
final class NATSConnection {
  /// A call to NATS that failed: which, the status, JetStream's error code
  /// when it gave one, and the client's last error text.
  struct Failure: Error, CustomStringConvertible {
    let operation: String
    let status: natsStatus
    let code: jsErrCode
    let detail: String
    var description: String {
      "\(operation): \(String(cString: natsStatus_GetText(status)))" + (code.rawValue != 0 ? " (JetStream \(code.rawValue))" : "")
        + (detail.isEmpty ? "" : ": \(detail)")
    }
    /// Another writer appended to the subject since we last read it.
    var isWrongLastSequence: Bool { code == JSStreamWrongLastSequenceErr }
  }

  private(set) var connection: OpaquePointer?
  private(set) var context: OpaquePointer?

  init(servers: String, timeoutMilliseconds: Int64) throws {
    var options: OpaquePointer?
    try Self.check("set up the connection", natsOptions_Create(&options))
    defer { natsOptions_Destroy(options) }
    try Self.check("set the servers", whilehere_nats_set_servers(options, servers))
    try Self.check("set the timeout", natsOptions_SetTimeout(options, timeoutMilliseconds))
    try Self.check("set reconnects", natsOptions_SetMaxReconnect(options, 60))
    try Self.check("connect to \(NATSLocation.redacting(servers))", natsConnection_Connect(&connection, options))
    var jsOptions = jsOptions()
    jsOptions_Init(&jsOptions)
    jsOptions.Wait = timeoutMilliseconds
    try Self.check("open JetStream", natsConnection_JetStream(&context, connection, &jsOptions))
  }

  deinit { close() }

  /// Connected now (not closed, not reconnecting to a server that went away).
  var isConnected: Bool { connection.map { natsConnection_Status($0) == NATS_CONN_STATUS_CONNECTED } ?? false }

  func close() {
    if let context { jsCtx_Destroy(context) }
    if let connection { natsConnection_Destroy(connection) }
    context = nil
    connection = nil
  }

  static func check(_ operation: String, _ status: natsStatus) throws {
    guard status == NATS_OK else { throw Failure(operation: operation, status: status, code: jsErrCode(0), detail: lastError()) }
  }

  static func lastError() -> String {
    var status = NATS_OK
    guard let text = nats_GetLastError(&status) else { return "" }
    return String(cString: text)
  }
}

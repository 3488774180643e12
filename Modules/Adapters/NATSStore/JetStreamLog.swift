import CNATS
import Foundation

/// The few calls a log needs, on the process's shared connections to its
/// servers (`SharedNATSConnections`): make sure the stream exists, publish
/// with an expected last sequence, find a subject's last sequence, read a
/// subject from a sequence on. Not thread-safe; its owner serialises calls
/// (each call holds one shared connection for its round trip).
final class JetStreamLog {
  typealias Failure = NATSConnection.Failure

  let location: NATSLocation
  /// Whether the stream keeps more than one replica (as made, whoever
  /// made it): only then can two writes expecting the same end both be
  /// stored (`NATSOperationStore.readBetween`).
  private(set) var replicated = true
  private var connections: NATSConnectionPool<NATSConnection>?

  init(_ location: NATSLocation, timeoutMilliseconds: Int64 = 5000) throws {
    self.location = location
    let connections = try SharedNATSConnections.process.take(servers: location.servers, timeoutMilliseconds: timeoutMilliseconds)
    self.connections = connections
    do {
      try connections.withOne { connection in
        let context = connection.context
        var code = jsErrCode(0)
        var replicas: Int64 = 0
        if whilehere_nats_stream_replicas(context, location.stream, &replicas, &code) != NATS_OK {
          var made = jsErrCode(0)
          let status = whilehere_nats_add_stream(context, location.stream, location.subjects, Int64(location.replicas), &made)
          replicas = Int64(location.replicas)
          // Another process may have made it meanwhile (with its own number of replicas).
          if status != NATS_OK, whilehere_nats_stream_replicas(context, location.stream, &replicas, &code) != NATS_OK {
            throw Failure(operation: "create the stream \(location.stream)", status: status, code: made, detail: Self.lastError())
          }
        }
        replicated = replicas != 1
      }
    } catch {
      close()
      throw error
    }
  }

  deinit { close() }

  /// Gives the shared connections back (once).
  func close() {
    guard let connections else { return }
    self.connections = nil
    SharedNATSConnections.process.release(connections)
  }

  /// Runs `body` with a shared connection's JetStream context.
  private func live<Result>(_ body: (OpaquePointer?) throws -> Result) throws -> Result {
    guard let connections else { throw Failure(operation: "use the log \(location.logSubject)", status: NATS_CONNECTION_CLOSED, code: jsErrCode(0), detail: "closed") }
    return try connections.withOne { connection in try body(connection.context) }
  }

  /// Stores `data` on `subject` if its last sequence is still `expected`
  /// (0: it holds nothing; nil: whatever it holds); the stream sequence
  /// JetStream acknowledged.
  func publish(_ data: Data, on subject: String, expected: UInt64?, id: String) throws -> UInt64 {
    var sequence: UInt64 = 0
    var code = jsErrCode(0)
    let status = try live { context in
      data.withUnsafeBytes { bytes in
        whilehere_nats_publish(context, subject, bytes.baseAddress, Int32(bytes.count), expected ?? 0, expected == 0, id, false, &sequence, &code)
      }
    }
    guard status == NATS_OK else { throw Failure(operation: "store on \(subject)", status: status, code: code, detail: Self.lastError()) }
    return sequence
  }

  /// The stream sequence of `subject`'s last message, 0 when none.
  func lastSequence(of subject: String) throws -> UInt64 {
    var sequence: UInt64 = 0
    var code = jsErrCode(0)
    let status = try live { whilehere_nats_last_sequence($0, location.stream, subject, &sequence, &code) }
    guard status == NATS_OK else { throw Failure(operation: "read the end of \(subject)", status: status, code: code, detail: Self.lastError()) }
    return sequence
  }

  /// Removes `subject`'s messages below stream sequence `below`.
  func purge(_ subject: String, below: UInt64) throws {
    var code = jsErrCode(0)
    let status = try live { whilehere_nats_purge_below($0, location.stream, subject, below, &code) }
    guard status == NATS_OK else { throw Failure(operation: "purge \(subject) below \(below)", status: status, code: code, detail: Self.lastError()) }
  }

  /// Every message on `subject` after stream sequence `after`, up to
  /// `through`, in order, with its sequence. Read by subject from any
  /// replica; one that has not caught up yet is asked again, sooner at
  /// first, for up to two seconds in all.
  func read(_ subject: String, after: UInt64, through: UInt64) throws -> [(UInt64, Data)] {
    var messages: [(UInt64, Data)] = []
    var next = after + 1
    var misses = 0
    var waited: useconds_t = 0
    while next <= through {
      var message: OpaquePointer?
      var code = jsErrCode(0)
      let status = try live { whilehere_nats_next(&message, $0, location.stream, subject, next, &code) }
      guard status == NATS_OK, let message else {
        // A replica a moment behind is usually there within a millisecond
        // or two (a writer reads back right after its own write).
        guard waited < 2_000_000 else {
          throw Failure(operation: "read \(subject)", status: status, code: code, detail: "no message at or after sequence \(next) of \(through)")
        }
        let delay = min(100_000, useconds_t(500) << min(misses, 8))
        misses += 1
        waited += delay
        usleep(delay)
        continue
      }
      defer { natsMsg_Destroy(message) }
      let sequence = natsMsg_GetSequence(message)
      guard sequence >= next else { throw Failure(operation: "read \(subject)", status: NATS_ERR, code: code, detail: "sequence \(sequence) went back") }
      let length = Int(natsMsg_GetDataLength(message))
      messages.append((sequence, length > 0 ? Data(bytes: natsMsg_GetData(message), count: length) : Data()))
      next = sequence + 1
    }
    return messages
  }

  static func lastError() -> String { NATSConnection.lastError() }
}

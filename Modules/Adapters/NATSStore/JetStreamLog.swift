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

  private let timeoutMilliseconds: Int64

  init(_ location: NATSLocation, timeoutMilliseconds: Int64 = 5000) throws {
    self.location = location
    self.timeoutMilliseconds = timeoutMilliseconds
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
  private func live<Result>(_ body: (OpaquePointer?) throws -> Result) throws -> Result { try pooled { try body($0.context) } }

  /// Runs `body` with a shared connection.
  private func connected<Result>(_ body: (OpaquePointer?) throws -> Result) throws -> Result { try pooled { try body($0.connection) } }

  private func pooled<Result>(_ body: (NATSConnection) throws -> Result) throws -> Result {
    guard let connections else { throw Failure(operation: "use the log \(location.logSubject)", status: NATS_CONNECTION_CLOSED, code: jsErrCode(0), detail: "closed") }
    return try connections.withOne { connection in try body(connection) }
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
  /// `through`, in order, with its sequence. Read by subject from the
  /// stream's leader, not by direct gets: nats-server before 2.9.17 lets a
  /// replica answer those while it is still catching up after a restart
  /// (nats-server #4171), and a read through it skipped what it lacked (a
  /// restarted worker opened people without their tasks). No answer yet
  /// (a leader being elected, a message a moment away) is asked again,
  /// sooner at first, for up to two seconds in all.
  func read(_ subject: String, after: UInt64, through: UInt64) throws -> [(UInt64, Data)] {
    var messages: [(UInt64, Data)] = []
    var next = after + 1
    var misses = 0
    var waited: useconds_t = 0
    while next <= through {
      guard let (sequence, data) = try leaderNext(subject, from: next) else {
        guard waited < 2_000_000 else {
          throw Failure(operation: "read \(subject)", status: NATS_NOT_FOUND, code: jsErrCode(0), detail: "no message at or after sequence \(next) of \(through)")
        }
        let delay = min(100_000, useconds_t(500) << min(misses, 8))
        misses += 1
        waited += delay
        usleep(delay)
        continue
      }
      guard sequence >= next else { throw Failure(operation: "read \(subject)", status: NATS_ERR, code: jsErrCode(0), detail: "sequence \(sequence) went back") }
      messages.append((sequence, data))
      next = sequence + 1
    }
    return messages
  }

  /// The first message on `subject` at or after stream sequence `from`,
  /// as the stream's leader answers `$JS.API.STREAM.MSG.GET` with
  /// `next_by_subj`; nil when it has none or did not answer.
  private func leaderNext(_ subject: String, from: UInt64) throws -> (UInt64, Data)? {
    let request = try JSONEncoder().encode(MessageRequest(seq: from, nextBySubject: subject))
    var reply: OpaquePointer?
    let status = try connected { connection in
      request.withUnsafeBytes { bytes in
        natsConnection_Request(&reply, connection, "$JS.API.STREAM.MSG.GET.\(location.stream)", bytes.baseAddress, Int32(bytes.count), timeoutMilliseconds)
      }
    }
    guard status == NATS_OK, let reply else { return nil }
    defer { natsMsg_Destroy(reply) }
    let length = Int(natsMsg_GetDataLength(reply))
    let body = length > 0 ? Data(bytes: natsMsg_GetData(reply), count: length) : Data()
    guard let answer = try? JSONDecoder().decode(MessageAnswer.self, from: body) else {
      throw Failure(operation: "read \(subject)", status: NATS_ERR, code: jsErrCode(0), detail: "the stream's answer is not a message")
    }
    guard let message = answer.message else { return nil }
    guard let data = Data(base64Encoded: message.data ?? "") else {
      throw Failure(operation: "read \(subject)", status: NATS_ERR, code: jsErrCode(0), detail: "message \(message.seq) is not base64")
    }
    return (message.seq, data)
  }

  private struct MessageRequest: Encodable {
    let seq: UInt64
    let nextBySubject: String
    enum CodingKeys: String, CodingKey {
      case seq
      case nextBySubject = "next_by_subj"
    }
  }

  /// The stream's answer: the message, or an error (none found, no leader yet).
  private struct MessageAnswer: Decodable {
    struct Message: Decodable {
      let seq: UInt64
      let data: String?
    }
    let message: Message?
  }

  static func lastError() -> String { NATSConnection.lastError() }
}

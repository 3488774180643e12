import CNATS
import Foundation

/// One connection to NATS and its JetStream context, with the few calls a
/// log needs: make sure the stream exists, publish with an expected last
/// sequence, find a subject's last sequence, read a subject from a
/// sequence on. Not thread-safe; its owner serialises calls.
final class JetStreamLog {
  typealias Failure = NATSConnection.Failure

  let location: NATSLocation
  private let connection: NATSConnection

  init(_ location: NATSLocation, timeoutMilliseconds: Int64 = 5000) throws {
    self.location = location
    connection = try NATSConnection(servers: location.servers, timeoutMilliseconds: timeoutMilliseconds)
    let context = connection.context
    var code = jsErrCode(0)
    if whilehere_nats_stream_exists(context, location.stream, &code) != NATS_OK {
      var made = jsErrCode(0)
      let status = whilehere_nats_add_stream(context, location.stream, location.subjects, Int64(location.replicas), &made)
      // Another process may have made it meanwhile.
      if status != NATS_OK, whilehere_nats_stream_exists(context, location.stream, &code) != NATS_OK {
        throw Failure(operation: "create the stream \(location.stream)", status: status, code: made, detail: Self.lastError())
      }
    }
  }

  func close() { connection.close() }

  /// Stores `data` on `subject` if its last sequence is still `expected`
  /// (0: it holds nothing); the stream sequence JetStream acknowledged.
  func publish(_ data: Data, on subject: String, expected: UInt64, id: String) throws -> UInt64 {
    var sequence: UInt64 = 0
    var code = jsErrCode(0)
    let status = data.withUnsafeBytes { bytes in
      whilehere_nats_publish(live, subject, bytes.baseAddress, Int32(bytes.count), expected, expected == 0, id, &sequence, &code)
    }
    guard status == NATS_OK else { throw Failure(operation: "store on \(subject)", status: status, code: code, detail: Self.lastError()) }
    return sequence
  }

  /// The stream sequence of `subject`'s last message, 0 when none.
  func lastSequence(of subject: String) throws -> UInt64 {
    var sequence: UInt64 = 0
    var code = jsErrCode(0)
    let status = whilehere_nats_last_sequence(live, location.stream, subject, &sequence, &code)
    guard status == NATS_OK else { throw Failure(operation: "read the end of \(subject)", status: status, code: code, detail: Self.lastError()) }
    return sequence
  }

  /// Every message on `subject` after stream sequence `after`, up to
  /// `through`, in order, with its sequence. Read by subject from any
  /// replica; one that has not caught up yet is asked again, briefly.
  func read(_ subject: String, after: UInt64, through: UInt64) throws -> [(UInt64, Data)] {
    var messages: [(UInt64, Data)] = []
    var next = after + 1
    var misses = 0
    while next <= through {
      var message: OpaquePointer?
      var code = jsErrCode(0)
      let status = whilehere_nats_next(&message, live, location.stream, subject, next, &code)
      guard status == NATS_OK, let message else {
        misses += 1
        guard misses < 20 else {
          throw Failure(operation: "read \(subject)", status: status, code: code, detail: "no message at or after sequence \(next) of \(through)")
        }
        usleep(50_000)
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

  private var live: OpaquePointer? { connection.context }

  static func lastError() -> String { NATSConnection.lastError() }
}

import Foundation

/// Bytes on a TCP socket, for requests no HTTP library would send
/// (two Content-Lengths, HTTP/1.0 without one): writes them, half-closes,
/// and reads what the server answers until it closes or `timeout` passes.
public enum RawHTTPClient {
  public static func exchange(port: Int, _ request: String, timeout: TimeInterval = 5, halfClose: Bool = true) -> String {
    exchangeReporting(port: port, request, timeout: timeout, halfClose: halfClose).answer
  }

  /// Also says whether every byte could be sent: a server that closes on a
  /// client still sending makes the client's write fail (a broken pipe),
  /// which is what a strict HTTP client reports instead of the answer.
  /// `halfClose`: say "no more bytes" after the request (an HTTP/1.0 body
  /// without a length ends so); off for a client that waits for an answer first.
  public static func exchangeReporting(port: Int, _ request: String, timeout: TimeInterval = 5, halfClose: Bool = true) -> (answer: String, sentAll: Bool) {
    guard let socket = connectLoopback(port: port) else { return ("", false) }
    defer { close(socket) }
    let bytes = Array(request.utf8)
    var sent = 0
    while sent < bytes.count {
      let written = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard written > 0 else { break }
      sent += written
    }
    if halfClose { shutdown(socket, Int32(SHUT_WR)) }
    return (readAnswer(socket, timeout: timeout), sent == bytes.count)
  }

  /// A connection that sent `prefix` and stays open (a slow client); closed
  /// with `close(_:)`. `from`: a loopback source address (any of
  /// 127.0.0.0/8 on Linux), to be many clients on one machine.
  public static func hold(port: Int, _ prefix: String, from source: String = "127.0.0.1") -> Int32? {
    guard let socket = connectLoopback(port: port, from: source) else { return nil }
    _ = Array(prefix.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    return socket
  }

  public static func close(_ socket: Int32) { _ = Foundation.close(socket) }

  /// Writes `text` on a held connection; false when it could not all be sent.
  public static func write(_ socket: Int32, _ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { Foundation.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
  }

  /// Reads one whole answer (with a Content-Length) from a connection, or
  /// what came before the server closed or `timeout` passed.
  public static func readAnswer(_ socket: Int32, timeout: TimeInterval = 5) -> String {
    var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    var answer = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !complete(answer) {
      let count = recv(socket, &buffer, buffer.count, 0)
      guard count > 0 else { break }
      answer += buffer[0..<count]
    }
    return String(decoding: answer, as: UTF8.self)
  }

  /// Whether the server ended the connection (its end of the stream, or a
  /// reset) within `timeout`, reading and dropping whatever it sent first.
  public static func closedByServer(_ socket: Int32, timeout: TimeInterval = 5) -> Bool {
    var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - floor(timeout)) * 1_000_000))
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = recv(socket, &buffer, buffer.count, 0)
      if count == 0 { return true }
      if count < 0 { return errno == ECONNRESET }
    }
  }

  /// A TCP connection to 127.0.0.1:`port` from `source`, or nil.
  static func connectLoopback(port: Int, from source: String = "127.0.0.1") -> Int32? {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return nil }
    if source != "127.0.0.1" {
      var local = sockaddr_in()
      local.sin_family = sa_family_t(AF_INET)
      local.sin_addr.s_addr = inet_addr(source)
      let bound = withUnsafePointer(to: &local) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
      }
      guard bound else {
        Foundation.close(socket)
        return nil
      }
    }
    guard LoopbackPort.connect(socket, to: port) else {
      Foundation.close(socket)
      return nil
    }
    return socket
  }

  /// Whether `bytes` hold a whole response with a Content-Length (the
  /// server may keep the connection open after it).
  public static func complete(_ bytes: [UInt8]) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let end = text.range(of: "\r\n\r\n") else { return false }
    let head = text[..<end.lowerBound].lowercased()
    guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
      let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
    else { return false }
    return text.utf8.count - text[..<end.upperBound].utf8.count >= length
  }

  /// The status code of a raw answer (`HTTP/1.1 400 …` → 400), or 0.
  public static func status(_ answer: String) -> Int {
    let parts = answer.split(separator: " ", maxSplits: 2)
    return parts.count >= 2 ? Int(parts[1]) ?? 0 : 0
  }
}

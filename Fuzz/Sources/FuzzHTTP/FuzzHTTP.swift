import Composition
import Daemon
import Foundation
import FuzzBounds
import Gateway
import Sodium
import Synchronization

/// Requests as whilehered's handler receives them (libmicrohttpd has parsed
/// the request line and headers): the input is one raw HTTP/1.1 request,
/// split here into method, path, query, headers and body, and handed to a
/// daemon booted in-process (its real config, routing, logins, OwnTracks
/// codec, API, engines and an in-memory store). Every answer must be a
/// well-formed status: 5xx only for the statuses the daemon documents
/// (503 busy or stopping), never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  // Taken before measuring: booting a fresh daemon every `inputsPerDaemon` is not this input's work.
  let daemon = FuzzDaemon.next()
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzHTTP", count) }
  guard let request = RawRequest.parse(Array(UnsafeBufferPointer(start: bytes, count: count))) else { return 0 }
  let response = daemon.server.send(request)
  if let status = response?.status {
    precondition((100...599).contains(status), "status \(status) for \(request.method) \(request.path)")
    precondition(status < 500 || status == 503, "\(status) for \(request.method) \(request.path): \(String(decoding: response?.body ?? Data(), as: UTF8.self))")
  }
  return 0
}

/// One daemon for many inputs (booting per input would measure the boot),
/// booted afresh after `inputsPerDaemon`: it keeps what accepted requests
/// store, so one daemon for a ten-minute run outgrew the 2 GiB limit.
final class FuzzDaemon: Sendable {
  static let inputsPerDaemon = 50_000
  private static let current = Mutex<(daemon: FuzzDaemon, inputs: Int)?>(nil)

  /// The daemon for the next input.
  static func next() -> FuzzDaemon {
    current.withLock { current in
      if let running = current, running.inputs < inputsPerDaemon {
        current = (running.daemon, running.inputs + 1)
        return running.daemon
      }
      current?.daemon.stop()
      let fresh = FuzzDaemon()
      current = (fresh, 1)
      return fresh
    }
  }

  let server: DirectHTTPServer
  let host: DaemonHost
  let runtime: Runtime

  func stop() {
    host.stop(drainSeconds: 0)
    runtime.shutdown()
  }

  private init() {
    let directory = NSTemporaryDirectory() + "whilehere-fuzz-http-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let hasher = Argon2idHasher(operations: 1, memoryBytes: 8192)
    // alice's password is "alice-secret"; her phone's device key is in the seeds' Authorization headers.
    let config = directory + "/config.json"
    let people = #"{"alice": {"password": "\#(try! hasher.hash("alice-secret"))", "devices": ["phone"]}, "bob": {"password": "\#(try! hasher.hash("bob-secret"))"}}"#
    try! Data(
      #"{"store": "memory", "clock": "manual:2026-06-01T12:00:00Z", "ids": "sequential", "notify": [], "server": {"listen": "127.0.0.1:0", "url": "https://wh.example.org"}, "people": \#(people)}"#
        .utf8
    ).write(to: URL(fileURLWithPath: config))
    // The in-process server and cheap hasher are registry entries, chosen by settings.
    let made = DirectHTTPServerSlot()
    let (registry, overrides) = ProviderRegistry.standard.inProcess(server: made, hasher: hasher)
    let runtime = try! Runtime.boot(
      LaunchOptions(program: .headless, profile: nil, configPath: config, overrides: overrides, environment: [:]), registry: registry)
    var tuning = DaemonHost.Tuning()
    tuning.retryDelay = 0
    tuning.manualTicks = true
    self.runtime = runtime
    host = try! DaemonHost.start(runtime: runtime, log: DaemonLog { _ in }, tuning: tuning)
    server = made.server!
  }
}

/// A raw request, split as a server would: request line, headers to the
/// first empty line, the rest as the body.
enum RawRequest {
  static func parse(_ bytes: [UInt8]) -> HTTPRequest? {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let end = text.range(of: "\r\n\r\n") ?? text.range(of: "\n\n") else { return nil }
    let head = text[..<end.lowerBound].split(whereSeparator: { $0 == "\n" }).map { $0.trimmingCharacters(in: .init(charactersIn: "\r")) }
    guard let line = head.first else { return nil }
    let parts = line.split(separator: " ", omittingEmptySubsequences: true)
    guard parts.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for header in head.dropFirst() {
      guard let colon = header.firstIndex(of: ":") else { continue }
      headers[String(header[..<colon])] = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let target = String(parts[1])
    let path = String(target.split(separator: "?", maxSplits: 1).first ?? "/")
    var query: [String: String] = [:]
    if let mark = target.firstIndex(of: "?") {
      for pair in target[target.index(after: mark)...].split(separator: "&") {
        let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        query[String(kv[0]).removingPercentEncoding ?? String(kv[0])] = kv.count > 1 ? (String(kv[1]).removingPercentEncoding ?? String(kv[1])) : ""
      }
    }
    return HTTPRequest(
      method: String(parts[0]), path: path, query: query, headers: headers, body: Data(text[end.upperBound...].utf8), clientAddress: "198.51.100.7")
  }
}

import Foundation

/// Debian's nats-server with JetStream on free loopback ports, for tests:
/// one node, or a cluster of several (each with its own store folder).
/// Stopped with SIGKILL when released, or one node at a time by a test.
public final class NATSServer {
  public let ports: [Int]
  private var processes: [Process?]
  private let directory: TemporaryDirectory
  private let arguments: [[String]]

  public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/sbin/nats-server") }

  /// `nats://127.0.0.1:PORT,…` for every node.
  public var url: String { ports.map { "nats://127.0.0.1:\($0)" }.joined(separator: ",") }

  /// `config`: more of node `index`'s configuration file (an `mqtt`
  /// listener, subject mappings), beside the options given as arguments.
  public init(nodes: Int = 1, config: (Int) -> String = { _ in "" }) throws {
    let directory = TemporaryDirectory()
    self.directory = directory
    let ports = try (0..<nodes).map { _ in try LoopbackPort.free() }
    self.ports = ports
    let routes = try (0..<nodes).map { _ in try LoopbackPort.free() }
    arguments = (0..<nodes).map { index in
      var arguments = ["-a", "127.0.0.1", "-p", String(ports[index]), "-js", "-sd", directory.path + "/node\(index)", "-n", "node\(index)"]
      let extra = config(index)
      if !extra.isEmpty {
        let file = directory.file("node\(index).conf")
        _ = FileManager.default.createFile(atPath: file, contents: Data(extra.utf8))
        arguments = ["-c", file] + arguments
      }
      if nodes > 1 {
        arguments += [
          "--cluster_name", "whilehere", "--cluster", "nats://127.0.0.1:\(routes[index])",
          "--routes", routes.enumerated().filter { $0.offset != index }.map { "nats://127.0.0.1:\($0.element)" }.joined(separator: ","),
        ]
      }
      return arguments
    }
    processes = Array(repeating: nil, count: nodes)
    for index in 0..<nodes { try start(index) }
  }

  /// Starts node `index` (again), and waits until it accepts connections.
  public func start(_ index: Int) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/sbin/nats-server")
    process.arguments = arguments[index]
    // Its log, for a test that fails to read (`log(index)`).
    let log = directory.file("node\(index).log")
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    try process.run()
    processes[index] = process
    // A real process is starting: poll until it accepts connections.
    for _ in 0..<2500 {
      if MosquittoServer.accepts(ports[index]) { return }
      usleep(2000)
    }
    throw NATSServerError(description: "nats-server did not start on port \(ports[index])")
  }

  /// What node `index` logged.
  /// Opens something on the servers once they can take it: a cluster
  /// elects its JetStream leader after the nodes meet, so `open` is tried
  /// again for up to 15 s; the last error, with node 0's log, when it never
  /// worked.
  public func whenReady<Opened>(_ open: () throws -> Opened) throws -> Opened {
    var lastError: (any Error)?
    for _ in 0..<60 {
      do { return try open() } catch {
        lastError = error
        usleep(250_000)
      }
    }
    throw NotReady(description: "the cluster never came up: \(String(describing: lastError))\n\(log(0).suffix(1500))")
  }

  public struct NotReady: Error, CustomStringConvertible {
    public let description: String
  }

  public func log(_ index: Int) -> String { (try? String(contentsOfFile: directory.file("node\(index).log"), encoding: .utf8)) ?? "" }

  /// Kills node `index` at once (a crash, not a shutdown).
  public func kill(_ index: Int) {
    guard let process = processes[index] else { return }
    Foundation.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    processes[index] = nil
  }

  deinit { for index in processes.indices { kill(index) } }

  struct NATSServerError: Error, CustomStringConvertible {
    let description: String
  }
}

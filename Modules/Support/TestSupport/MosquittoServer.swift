import Foundation

/// Debian's mosquitto broker on a free loopback port, for tests; stopped
/// (SIGKILL, it holds nothing worth keeping) when released.
public final class MosquittoServer {
  public let port: Int
  private let process: Process
  private let directory: TemporaryDirectory

  public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto") }

  /// `port`: a given loopback port (a broker that comes up where a daemon already looks), or a free one.
  public init(port given: Int? = nil) throws {
    directory = TemporaryDirectory()
    port = try given ?? LoopbackPort.free()
    let config = directory.write("mosquitto.conf", "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n")
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
    process.arguments = ["-c", config]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // A real process is starting: poll until it accepts connections.
    for _ in 0..<2500 {
      if Self.accepts(port) { return }
      usleep(2000)
    }
    kill(process.processIdentifier, SIGKILL)
    throw MosquittoError(description: "mosquitto did not start on port \(port)")
  }

  deinit {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  struct MosquittoError: Error, CustomStringConvertible {
    let description: String
  }

  static func accepts(_ port: Int) -> Bool {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return false }
    defer { close(socket) }
    return LoopbackPort.connect(socket, to: port)
  }
}

import Domain
import Foundation

/// Debian's gpsfake replaying a real trace (../shared/data/traces format)
/// as NMEA into a private gpsd on a free loopback port; the gpsd and
/// gpsfake are killed together on release.
///
/// `init` returns only once a gpsd answers on `port` with its VERSION
/// banner: on a loaded machine gpsfake can take seconds to start its gpsd,
/// and a port found free can be taken by another test's server before gpsd
/// binds it, which a client would otherwise mistake for a silent gpsd.
public final class Gpsfake {
  public let port: Int
  public let points: [NMEAWriter.Fix]
  private let process: Process
  private let directory = TemporaryDirectory()

  public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake") }

  /// What gpsfake and its gpsd printed, for a failing test's message.
  public var output: String { (try? String(contentsOfFile: directory.file("gpsfake.out"), encoding: .utf8)) ?? "" }

  /// The first `limit` fixes of a trace file; `once` plays the log once instead of looping.
  public init(trace: String, limit: Int, once: Bool, startWithin seconds: Double = 30) throws {
    let formatter = ISO8601DateFormatter()
    points = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").prefix(limit).compactMap { line in
      guard case .object(let object)? = try? JSONParser.parse(Data(line.utf8)), case .string(let t)? = object["t"],
        case .number(let lat)? = object["lat"], case .number(let lon)? = object["lon"], let time = formatter.date(from: t)
      else { return nil }
      return NMEAWriter.Fix(time: time, latitude: lat, longitude: lon)
    }
    let log = directory.write("trace.nmea", NMEAWriter.sentences(points))
    let output = directory.file("gpsfake.out")
    var failures: [String] = []
    for _ in 0..<3 {
      let port = try LoopbackPort.free()
      _ = FileManager.default.createFile(atPath: output, contents: nil)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/gpsfake")
      process.arguments = ["-P", String(port)] + (once ? ["-1"] : []) + ["-q", "-c", "0.05", log]
      process.standardOutput = FileHandle(forWritingAtPath: output)
      process.standardError = process.standardOutput
      try process.run()
      if Self.gpsdAnswers(on: port, while: process, within: seconds) {
        self.port = port
        self.process = process
        return
      }
      Self.killGroup(of: process)
      failures.append("port \(port): \((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")")
    }
    throw GpsfakeError(description: "gpsfake's gpsd never answered; " + failures.joined(separator: "; "))
  }

  /// Polls until a connection to `port` reads gpsd's `{"class":"VERSION"` banner.
  private static func gpsdAnswers(on port: Int, while process: Process, within seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline, process.isRunning {
      if banner(on: port).contains(#""class":"VERSION""#) { return true }
      usleep(50_000)
    }
    return false
  }

  private static func banner(on port: Int) -> String {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return "" }
    defer { close(socket) }
    var timeout = timeval(tv_sec: 1, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    guard LoopbackPort.connect(socket, to: port) else { return "" }
    var buffer = [UInt8](repeating: 0, count: 512)
    let count = recv(socket, &buffer, buffer.count, 0)
    return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
  }

  /// Foundation starts the child in its own process group; gpsfake's gpsd
  /// stays in it, so killing the group leaves no gpsd behind.
  private static func killGroup(of process: Process) {
    kill(-process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  deinit { Self.killGroup(of: process) }
}

struct GpsfakeError: Error, CustomStringConvertible {
  let description: String
}

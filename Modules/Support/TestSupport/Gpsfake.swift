import Domain
import Foundation

/// Debian's gpsfake replaying a real trace (../shared/data/traces format)
/// as NMEA into a private gpsd on a free loopback port; killed on release.
public final class Gpsfake {
  public let port: Int
  public let points: [NMEAWriter.Fix]
  private let process: Process
  private let directory = TemporaryDirectory()

  public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake") }

  /// The first `limit` fixes of a trace file; `once` plays the log once instead of looping.
  public init(trace: String, limit: Int, once: Bool) throws {
    let formatter = ISO8601DateFormatter()
    points = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").prefix(limit).compactMap { line in
      guard case .object(let object)? = try? JSONParser.parse(Data(line.utf8)), case .string(let t)? = object["t"],
        case .number(let lat)? = object["lat"], case .number(let lon)? = object["lon"], let time = formatter.date(from: t)
      else { return nil }
      return NMEAWriter.Fix(time: time, latitude: lat, longitude: lon)
    }
    let log = directory.write("trace.nmea", NMEAWriter.sentences(points))
    port = try LoopbackPort.free()
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/gpsfake")
    process.arguments = ["-P", String(port)] + (once ? ["-1"] : []) + ["-q", "-c", "0.05", log]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
  }

  deinit {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}

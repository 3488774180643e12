import Domain
import Foundation
import Geofencing
import Gpsd
import Locking
import Testing
import TestSupport

@Suite(.serialized) struct GpsdSourceTests {
  static let trace = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/data/traces/zurich-day.jsonl").standardized.path
  static var gpsfakeUsable: Bool {
    Gpsfake.isInstalled && FileManager.default.fileExists(atPath: trace)
  }

  @Test func aTPVWithAFixBecomesAFixAndEverythingElseIsNothing() throws {
    let at = Date(timeIntervalSince1970: 1_780_000_000)
    let fix = try #require(GpsdReport.fix(
      from: Data(#"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2032-08-03T12:02:31.000Z","lat":60.1699,"lon":24.9384,"eph":17.1,"speed":0.2}"#.utf8),
      receivedAt: at))
    #expect(fix.coordinate == (try Coordinate(latitude: 60.1699, longitude: 24.9384)))
    #expect(fix.accuracy == 17.1)
    #expect(fix.at == at, "gpsd's own time can be years off after a week rollover")
    #expect(GpsdReport.fix(from: Data(#"{"class":"TPV","mode":2,"lat":60.17,"lon":24.94,"epx":8,"epy":12}"#.utf8), receivedAt: at)?.accuracy == 12)
    for line in [
      #"{"class":"TPV","mode":1}"#, #"{"class":"VERSION","release":"3.22"}"#, #"{"class":"TPV","mode":3,"lat":95,"lon":1}"#,
      #"{"class":"TPV","mode":3,"lat":"60","lon":24}"#, "garbage", "",
    ] {
      #expect(GpsdReport.fix(from: Data(line.utf8), receivedAt: at) == nil, "\(line)")
    }
  }

  /// Debian's gpsd, fed by gpsfake from an NMEA log made from a real trace.
  @Test(.enabled(if: gpsfakeUsable)) func readsARealTraceThroughGpsfake() throws {
    let gpsfake = try Gpsfake(trace: Self.trace, limit: 40, once: false)
    let points = gpsfake.points
    #expect(points.count == 40)
    let port = gpsfake.port
    let received = Locked<[PhoneFix]>([])
    let source = GpsdSource(host: "127.0.0.1", port: port, clock: ManualClock(Date(timeIntervalSince1970: 1_780_000_000)))
    try source.start { report in
      if case .location(let fix) = report { received.withLock { $0.append(fix) } }
    }
    // Real processes: poll until gpsd has passed on a handful of fixes.
    for _ in 0..<20_000 where received.withLock({ $0.count }) < 5 { usleep(2000) }
    source.stop()
    let fixes = received.withLock { $0 }
    #expect(fixes.count >= 5, "gpsfake: \(gpsfake.output)")
    // Every fix is one of the trace's points (NMEA keeps 4 decimals of minutes: ~0.2 m).
    for fix in fixes {
      let nearest = points.map { fix.coordinate.distance(to: try! Coordinate(latitude: $0.latitude, longitude: $0.longitude)) }.min() ?? .infinity
      #expect(nearest < 1, "a fix \(nearest) m from every trace point")
    }
  }

  @Test func aMissingGpsdIsRetriedUntilStopped() throws {
    let source = GpsdSource(host: "127.0.0.1", port: 1, clock: ManualClock())
    try source.start { _ in Issue.record("nothing listens on port 1") }
    #expect(throws: LocationSourceError.self) { try source.start { _ in } }
    source.stop()
    source.stop()
  }
}

import Domain
import Foundation
import Geofencing
import Locking
import OwnTracks
import Testing
import TestSupport

@Suite struct ReplaySourceTests {
  final class Collected: Sendable {
    private let state = Locked<(reports: [PhoneReport], messages: [String])>(([], []))
    var reports: [PhoneReport] { state.withLock { $0.reports } }
    var messages: [String] { state.withLock { $0.messages } }
    func add(_ report: PhoneReport) { state.withLock { $0.reports.append(report) } }
    func add(_ message: String) { state.withLock { $0.messages.append(message) } }
  }

  func replay(_ text: String, restamp: Bool) throws -> Collected {
    let directory = TemporaryDirectory()
    let path = directory.write("replay.jsonl", text)
    let collected = Collected()
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    let source = ReplaySource(path: path, restamp: restamp, clock: clock) { message in collected.add(message) }
    try source.start { report in collected.add(report) }
    source.waitUntilFinished()
    return collected
  }

  @Test func readsOwnTracksMessagesAndTraceFixesAndSkipsBadLinesByNumber() throws {
    let collected = try replay(
      """
      {"t":"2026-01-01T10:00:00Z","lat":60.16,"lon":24.94,"acc":10}

      not json
      {"_type":"location","lat":60.17,"lon":24.95,"tst":1780000000,"acc":8}
      {"t":"2026-01-01T10:00:05.250Z","lat":60.18,"lon":24.96,"acc":null}
      {"t":"yesterday","lat":60.18,"lon":24.96}
      """, restamp: false)
    #expect(collected.reports.count == 3)
    guard case .location(let first) = collected.reports[0], case .location(let third) = collected.reports[2] else {
      Issue.record("not locations: \(collected.reports)")
      return
    }
    #expect(first.at == ISO8601DateFormatter().date(from: "2026-01-01T10:00:00Z"))
    #expect(third.accuracy == nil)
    #expect(collected.messages.contains { $0.contains("line 3") })
    #expect(collected.messages.contains { $0.contains("line 6") && $0.contains("ISO-8601") })
    #expect(collected.messages.last?.contains("finished after 6 lines") == true)
  }

  @Test func restampingMakesAnOldTraceHappenNowAndKeepsItsPace() throws {
    let collected = try replay(
      """
      {"t":"2012-12-18T11:53:30Z","lat":47.36,"lon":8.54,"acc":5}
      {"t":"2012-12-18T11:55:30Z","lat":47.37,"lon":8.54,"acc":5}
      """, restamp: true)
    let times = collected.reports.compactMap { report -> Date? in
      guard case .location(let fix) = report else { return nil }
      return fix.at
    }
    // The second fix stays two minutes after the first: how far a device
    // could move in between is what tells an outlier from a walk.
    #expect(times == [Date(timeIntervalSince1970: 1_800_000_000), Date(timeIntervalSince1970: 1_800_000_120)])
  }

  @Test func aMissingFileIsNamed() {
    let source = ReplaySource(path: "/nonexistent/trace.jsonl", restamp: false, clock: ManualClock())
    #expect(throws: LocationSourceError.self) { try source.start { _ in } }
  }
}

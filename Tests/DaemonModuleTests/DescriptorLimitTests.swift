@testable import Daemon
import Foundation
import TestSupport
import Testing

/// Ten thousand people's stores need as many open files: the daemon raises
/// its limit or refuses to start saying what to raise, instead of failing
/// on the last person's store.
@Suite struct DescriptorLimitTests {
  @Test func oneFilePerPersonAndOnePerConnection() {
    #expect(DescriptorLimit.needed(people: 10_000, connections: 512) == 10_640)
    #expect(DescriptorLimit.needed(people: 0, connections: 512) == 640)
  }

  @Test func aLimitTheHardLimitAllowsIsMetAndOneItDoesNotIsRefusedNamingTheFix() throws {
    try DescriptorLimit.ensure(64)
    #expect {
      try DescriptorLimit.ensure(Int(Int32.max))
    } throws: { error in
      let text = String(describing: error)
      return text.contains("ulimit -n \(Int32.max)") && text.contains("LimitNOFILE=\(Int32.max)")
    }
  }

  @Test func eachPersonsStoreHoldsOnlyItsLockOpen() throws {
    let directory = TemporaryDirectory()
    let daemon = try DaemonHarness(store: "file:" + directory.file("store"), directory: directory)
    #expect(daemon.send("POST", "/api/v1/tasks", body: #"{"title":"Buy milk","locations":[{"at":"60.17,24.94","radius":150}]}"#).status == 201)
    let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
      try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
    }.filter { $0.hasPrefix(directory.file("store") + "/people/") }.sorted()
    #expect(held == ["alice", "bob"].map { directory.file("store") + "/people/\($0)/LOCK" }, "\(held)")
  }
}

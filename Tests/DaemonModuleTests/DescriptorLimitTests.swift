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

  /// A process that may raise its hard limit (CAP_SYS_RESOURCE: root in a
  /// container) raises it for the people it has; one that may not is
  /// refused past it, naming the fix.
  @Test func pastTheHardLimitWhereTheProcessMayRaiseIt() throws {
    var limit = rlimit()
    #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
    let ceiling = Int((try? String(contentsOfFile: "/proc/sys/fs/nr_open", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 1 << 20
    let wanted = min(Int(limit.rlim_max) + 100, ceiling)
    guard wanted > Int(limit.rlim_max) else { return }
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let effective = status.split(separator: "\n").first { $0.hasPrefix("CapEff:") }.flatMap { UInt64($0.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) } ?? 0
    if effective & (1 << 24) != 0 {
      try DescriptorLimit.ensure(wanted)
      #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
      #expect(Int(limit.rlim_cur) >= wanted && Int(limit.rlim_max) >= wanted)
    } else {
      #expect(throws: DaemonError.self) { try DescriptorLimit.ensure(wanted) }
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

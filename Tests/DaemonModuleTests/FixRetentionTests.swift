import Composition
@testable import Daemon
import Foundation
import Testing
import TestSupport

/// Raw positions leave the disk: a journalled fix older than
/// server.fix-retention is gone from every file of the store after the
/// sweep, and a person removed from the config takes their last fix along.
@Suite(.serialized) struct FixRetentionTests {
  /// Every file under `path`, as bytes, searched for `needle`.
  func anyFileContains(_ needle: String, under path: String) -> [String] {
    let manager = FileManager.default
    let bytes = Data(needle.utf8)
    return (manager.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []).filter { name in
      manager.contents(atPath: path + "/" + name)?.range(of: bytes) != nil
    }
  }

  @Test func anOldFixIsGoneFromEveryFileAfterTheRetention() throws {
    let directory = TemporaryDirectory()
    let store = directory.file("store")
    do {
      let daemon = try DaemonHarness(extra: #", "server": {"listen": "127.0.0.1:0", "url": "https://wh.example.org", "fix-retention": "1d"}"#, store: "file:" + store, directory: directory)
      let fix = #"{"_type":"location","lat":60.1111111,"lon":24.2222222,"tst":\#(Int(daemon.runtime.clock.now().timeIntervalSince1970)),"acc":10}"#
      #expect(daemon.send("POST", "/owntracks", body: fix).status == 200)
      daemon.host.sweepLocationHistory()
      #expect(!anyFileContains("60.1111111", under: store).isEmpty, "kept within the retention")
      daemon.clock.advance(by: 25 * 3600)
      daemon.host.sweepLocationHistory()
      #expect(anyFileContains("60.1111111", under: store).isEmpty, "\(anyFileContains("60.1111111", under: store))")
      #expect(daemon.host.people.byName["alice"]?.journal.state().settings["fix.alice"] == nil)
    }
  }

  @Test func aRemovedPersonsLastFixGoesAtTheNextStart() throws {
    let directory = TemporaryDirectory()
    let store = directory.file("store")
    do {
      let daemon = try DaemonHarness(store: "file:" + store, directory: directory)
      let fix = #"{"_type":"location","lat":60.1333333,"lon":24.2444444,"tst":\#(Int(daemon.runtime.clock.now().timeIntervalSince1970)),"acc":10}"#
      #expect(daemon.send("POST", "/owntracks", body: fix, as: "bob", headers: ["X-Limit-D": "phone"]).status == 200)
      #expect(!anyFileContains("60.1333333", under: store).isEmpty)
    }
    let again = try DaemonHarness(store: "file:" + store, directory: directory, withoutBob: true)
    #expect(again.host.people.byName["bob"] == nil)
    #expect(anyFileContains("60.1333333", under: store).isEmpty, "\(anyFileContains("60.1333333", under: store))")
  }
}

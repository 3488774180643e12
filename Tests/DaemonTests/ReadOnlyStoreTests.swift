import Foundation
import Testing
import TestSupport

/// A store a person may read but not write (another user's, or on a
/// read-only disk): the real binary reads it, refuses writes saying why,
/// and doctor exits non-zero.
@Suite(.serialized) struct ReadOnlyStoreTests {
  func run(_ arguments: [String], home: String, asStranger: Bool) throws -> (status: Int32, output: String) {
    let cli = BuiltProduct.path("whilehere")
    let environment = ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "NO_COLOR": "1"]
    // Root may write anywhere; a stranger (nobody) may not.
    guard asStranger else { return try BuiltProduct.run(cli, arguments, environment: environment) }
    return try BuiltProduct.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", cli] + arguments, environment: environment)
  }

  @Test func readsWorkWritesSayWhyAndDoctorFails() throws {
    let directory = TemporaryDirectory()
    let home = directory.path
    #expect(try run(["task", "add", "Milk", "--at", "60.17,24.94"], home: home, asStranger: false).status == 0)
    let root = getuid() == 0
    let store = home + "/data/whilehere"
    let before = try FileManager.default.contentsOfDirectory(atPath: store).sorted()
    if root {
      for path in [home, home + "/data", store] { chmod(path, 0o755) }
      for name in before { chmod(store + "/" + name, 0o644) }
    } else {
      chmod(store, 0o555)
    }
    defer { chmod(store, 0o700) }
    let listing = try run(["task", "list"], home: home, asStranger: root)
    #expect(listing.status == 0, "\(listing.output)")
    #expect(listing.output.contains("Milk"))
    let add = try run(["task", "add", "Eggs", "--at", "60.17,24.94"], home: home, asStranger: root)
    #expect(add.status == 74, "\(add.output)")
    #expect(add.output.contains("cannot write to the store \(store)"), "\(add.output)")
    #expect(add.output.contains("reading still works"))
    let doctor = try run(["doctor"], home: home, asStranger: root)
    #expect(doctor.status != 0, "\(doctor.output)")
    #expect(doctor.output.contains("read-only"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: store).sorted() == before)
  }
}

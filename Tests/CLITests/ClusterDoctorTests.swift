import CLI
import Domain
import Foundation
import NATSStore
import Partitions
import Testing
import TestSupport

/// `whilehere doctor` on a cluster worker's config: who holds which
/// partition, read from the leases on the NATS servers; servers that
/// cannot be reached are a problem, and the exit says so.
@Suite struct ClusterDoctorTests {
  func write(_ cli: CLIHarness, cluster: String) {
    let directory = cli.home + "/config/whilehere"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: directory + "/config.json", contents: Data(#"{"cluster": {"nats": "\#(cluster)", "partitions": 4}}"#.utf8))
  }

  @Test func doctorShowsWhoHoldsWhichPartition() throws {
    let server = try NATSServer()
    let location = try NATSLocation("\(server.url);stream=work")
    let worker = try PartitionOwner(worker: "w1", partitions: 4, store: try NATSLeaseStore(location), clock: SystemClock())
    try worker.round()
    let cli = CLIHarness()
    write(cli, cluster: "\(server.url);stream=work")
    let result = cli.run("doctor")
    #expect(result.stdout.contains("cluster \(server.url);stream=work: w1 holds 4; 0 of 4 free"), "\(result.stdout)")
  }

  @Test func unreachableServersAreAProblem() throws {
    let cli = CLIHarness()
    write(cli, cluster: "nats://127.0.0.1:\(try LoopbackPort.free())")
    let result = cli.run("doctor")
    #expect(result.stdout.contains("cannot read the leases"), "\(result.stdout)")
    #expect(result.code != 0)
  }
}

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

  /// A password in the servers' URLs is never shown.
  @Test func doctorLeavesOutTheServersPasswords() throws {
    let cli = CLIHarness()
    write(cli, cluster: "nats://whilehere:s3cret-token@127.0.0.1:\(try LoopbackPort.free());stream=work")
    let result = cli.run("doctor")
    #expect(result.stdout.contains("cluster nats://whilehere:***@127.0.0.1:"), "\(result.stdout)")
    #expect(!result.stdout.contains("s3cret-token") && !result.stderr.contains("s3cret-token"))
  }

  /// `whilehere cluster mqtt`: the NATS servers' configuration for phones on
  /// their MQTT listener, written 0600 with bcrypt hashes only, and each
  /// token shown once.
  @Test func clusterMQTTWritesTheServersConfigurationAndShowsTokensOnce() throws {
    let cli = CLIHarness()
    write(cli, cluster: "nats://127.0.0.1:4222;stream=work")
    let passwordFile = cli.home + "/pw"
    _ = FileManager.default.createFile(atPath: passwordFile, contents: Data("correct horse battery\n".utf8))
    for name in ["alice", "bob"] { #expect(cli.run("user", "add", name, "--password-file", passwordFile).code == 0) }
    let out = cli.home + "/mqtt.conf"
    let shown = try #require(try cli.json("cluster", "mqtt", "--out", out, "--port", "8883", "alice", "bob") as? [String: Any])
    let tokens = try #require(shown["tokens"] as? [String: String])
    #expect(Set(tokens.keys) == ["alice", "bob"])
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.contains("mqtt { port: 8883 }"))
    #expect(text.contains(#""owntracks.*.*": "wh.work-ingest.{{partition(4,1)}}.mqtt.{{wildcard(1)}}.{{wildcard(2)}}""#))
    #expect(text.contains(#"allow: ["owntracks.alice.>", "wh.work-ingest.*.mqtt.alice.>"]"#), "alice publishes as herself only")
    #expect(text.components(separatedBy: "$2b$").count == 4, "the workers, alice and bob, as bcrypt")
    for token in Array(tokens.values) + [shown["workerToken"] as? String ?? "?"] { #expect(!text.contains(token), "no token in the file") }
    let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    // A name not in the config is refused, naming it.
    let unknown = cli.run("cluster", "mqtt", "--out", out, "carol")
    #expect(unknown.code != 0 && unknown.stderr.contains("carol"), "\(unknown.stderr)")
    #expect(cli.run("cluster", "mqtt", "alice").code != 0, "--out is required")
  }

  @Test func unreachableServersAreAProblem() throws {
    let cli = CLIHarness()
    write(cli, cluster: "nats://127.0.0.1:\(try LoopbackPort.free())")
    let result = cli.run("doctor")
    #expect(result.stdout.contains("cannot read the leases"), "\(result.stdout)")
    #expect(result.code != 0)
  }
}

import Foundation
import NATSStore
import Partitions

/// What a cluster's workers share (`cluster.nats`): the partitioned report
/// queue, the leases that say who works which partition, and the mailbox
/// where workers leave commands for phones that only hear from the server
/// in answers. NATS JetStream in a deployment; tests hand the daemon
/// in-memory ones shared by several hosts in one process.
public struct ClusterPorts: Sendable {
  public let queue: any ReportQueue
  public let leases: any LeaseStore
  public let mailbox: any CommandMailbox
  /// What `doctor` and the log name the cluster by (never a password).
  public let description: String

  public init(queue: any ReportQueue, leases: any LeaseStore, mailbox: any CommandMailbox, description: String) {
    self.queue = queue
    self.leases = leases
    self.mailbox = mailbox
    self.description = description
  }

  /// `cluster.nats` (or a `nats:` store) as it may be shown: passwords in
  /// its server URLs left out.
  public static func shown(_ servers: String) -> String { NATSLocation.redacting(servers) }

  /// Who holds which partition now, read from the leases on
  /// `settings.clusterNATS` alone (for `whilehere doctor`: nothing is made
  /// or written but the lease bucket, if it did not exist yet).
  public static func table(_ settings: Settings, now: Date) throws -> PartitionTable {
    try PartitionTable.read(NATSLeaseStore(try NATSLocation(settings.clusterNATS)), partitions: settings.clusterPartitions, now: now)
  }

  /// The ports on the NATS servers `settings.clusterNATS` names.
  public static func open(_ settings: Settings) throws -> ClusterPorts {
    let location = try NATSLocation(settings.clusterNATS)
    return ClusterPorts(
      queue: try NATSReportQueue(location, partitions: settings.clusterPartitions, retention: max(settings.fixRetention, 60)),
      leases: try NATSLeaseStore(location), mailbox: try NATSCommandMailbox(location),
      description: "nats stream \(location.stream)-ingest, \(settings.clusterPartitions) partitions, \(location.replicas) replica\(location.replicas == 1 ? "" : "s")")
  }
}

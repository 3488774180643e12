import Domain

/// People are spread over a fixed number of partitions by a stable hash of
/// their name, so one person's reports always land in the same partition
/// (and stay in order) whichever worker owns it.
public enum Partitioning {
  /// 32-bit FNV-1a of the name's UTF-8 bytes, modulo `count`: the same as
  /// nats-server's `{{partition(count,N)}}` subject mapping of that name,
  /// so NATS can file a phone's MQTT reports by itself (Docs/Cluster.md).
  public static func partition(of person: String, count: Int) -> Int {
    precondition(count > 0, "at least one partition")
    return Int(FNV1a.hash32(person.utf8) % UInt32(count))
  }

  /// The lease key of partition `index`, and of worker `id`'s presence.
  public static func partitionKey(_ index: Int) -> String { "partition.\(index)" }
  public static func workerKey(_ id: String) -> String { "worker.\(id)" }
}

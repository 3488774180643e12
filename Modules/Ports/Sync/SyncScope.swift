import Persistence

/// Which records travel. Settings under `local.` (sync cursors), the
/// precise-tracking budget and the visits an engine reminded (`arrival.visits`)
/// belong to one device and never leave it: another device's engine sees
/// other fixes and keeps its own.
public enum SyncScope {
  public static func travels(_ record: OperationRecord) -> Bool {
    guard case .setting(let key) = record.operation.key else { return true }
    return !(key.hasPrefix("local.") || key == "tracking.budget" || key == "arrival.visits")
  }
}

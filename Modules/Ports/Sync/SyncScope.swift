import Persistence

/// Which records travel. Settings under `local.` (sync cursors) and the
/// precise-tracking budget belong to one device and never leave it.
public enum SyncScope {
  public static func travels(_ record: OperationRecord) -> Bool {
    guard case .setting(let key) = record.operation.key else { return true }
    return !(key.hasPrefix("local.") || key == "tracking.budget")
  }
}

/// A store that repairs on its own (a crash's torn write) and keeps a notice
/// of each repair until a person has seen it.
///
/// Contract: `describe().notices` lists every repair not yet acknowledged,
/// whichever process made it; after `acknowledgeNotices()` they are no
/// longer listed, and their evidence is kept, not deleted.
public protocol NoticeKeepingStore: OperationStore {
  /// Marks the notices `describe()` showed as seen.
  func acknowledgeNotices() throws
}

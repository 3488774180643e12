/// Why a store could not do what was asked. Each case says where, and what
/// the person can do next.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
  case locked(path: String, pid: Int32?)
  case corrupt(path: String, offset: UInt64, reason: String)
  case io(path: String, operation: String, reason: String)
  case unsupportedVersion(path: String, found: Int)
  case closed

  public var description: String {
    switch self {
    case .locked(let path, let pid):
      let holder = pid.map { "pid \($0)" } ?? "another process"
      return "store in use by \(holder) (\(path)); stop that process or use another store"
    case .corrupt(let path, let offset, let reason):
      return "store file \(path) is damaged at byte offset \(offset): \(reason). Nothing was changed; "
        + "copy the file somewhere safe before deciding what to do (see README, 'When the store is damaged')"
    case .io(let path, let operation, let reason):
      return "cannot \(operation) \(path): \(reason)"
    case .unsupportedVersion(let path, let found):
      return "store \(path) has format version \(found), which this build does not read; upgrade whilehere"
    case .closed:
      return "store is closed"
    }
  }
}

/// Why a store could not do what was asked. Each case says where, and what
/// the person can do next.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
  case locked(path: String, pid: Int32?)
  case corrupt(path: String, offset: UInt64, reason: String)
  case io(path: String, operation: String, reason: String)
  case unsupportedVersion(path: String, found: Int)
  /// Parts the store's manifest names are missing or shorter than written.
  case incomplete(directory: String, losses: [String])
  /// The store can be read but not written (a read-only directory or file).
  case readOnly(path: String, reason: String)
  case closed

  public var description: String {
    switch self {
    case .locked(let path, let pid):
      let holder = pid.map { "pid \($0)" } ?? "another process"
      return "store in use by \(holder) (\(path)) for longer than a write waits (WHILEHERE_STORE_WAIT, 10 s by default); "
        + "if that is whilehered, the CLI goes through it as the config's only person or as WHILEHERE_USER, or use --server URL"
    case .corrupt(let path, let offset, let reason):
      return "store file \(path) is damaged at byte offset \(offset): \(reason). Nothing was changed; "
        + "copy the file somewhere safe before deciding what to do (see README, 'When the store is damaged')"
    case .io(let path, let operation, let reason):
      return "cannot \(operation) \(path): \(reason)"
    case .unsupportedVersion(let path, let found):
      return "store \(path) has format version \(found), which this build does not read; upgrade whilehere"
    case .incomplete(let directory, let losses):
      return "store \(directory) is missing data it acknowledged: " + losses.joined(separator: "; ")
        + ". Nothing was changed. Restore the missing files from a backup, or keep what is left with "
        + "'whilehere store recover' (it copies the damaged files to recovered/ first)"
    case .readOnly(let path, let reason):
      return "cannot write to the store \(path): \(reason); reading still works"
    case .closed:
      return "store is closed"
    }
  }
}

import Foundation

/// Open files whilehered needs: each person's file store holds its writer
/// lock open (its log only while a batch is written), every connection is
/// a socket, and the journal, the broker and the logs take a few more. Raised
/// at start, past the hard limit where the process may (root or
/// CAP_SYS_RESOURCE), else up to it; beyond that the start is refused naming
/// what to raise, rather than failing later on whichever person's store comes last.
enum DescriptorLimit {
  static func needed(people: Int, connections: Int) -> Int { people + connections + 128 }

  /// Raises the soft limit towards `needed`; throws when the hard limit is lower.
  static func ensure(_ needed: Int) throws {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    guard limit.rlim_cur < rlim_t(needed) else { return }
    var raised = limit
    // Past the hard limit where the process may raise it (root, or
    // CAP_SYS_RESOURCE: a container's daemon); else up to it.
    raised.rlim_cur = rlim_t(needed)
    raised.rlim_max = max(limit.rlim_max, rlim_t(needed))
    if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) != 0 {
      raised = limit
      raised.rlim_cur = min(limit.rlim_max, rlim_t(needed))
      _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised)
    }
    guard raised.rlim_cur >= rlim_t(needed) else {
      throw DaemonError(
        "the people configured need about \(needed) open files and the limit is \(limit.rlim_max): raise it (ulimit -n \(needed), or LimitNOFILE=\(needed) in the systemd unit)")
    }
  }
}

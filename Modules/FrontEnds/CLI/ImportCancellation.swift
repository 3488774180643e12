import Foundation
import Synchronization

/// Ctrl-C during an import asks it to stop after the chunk it is on, so
/// what was settled is kept and the same command continues from there.
enum ImportCancellation {
  static let flag = Atomic<Bool>(false)

  static var requested: Bool { flag.load(ordering: .relaxed) }

  static func begin() {
    flag.store(false, ordering: .relaxed)
    signal(SIGINT) { _ in ImportCancellation.flag.store(true, ordering: .relaxed) }
    // A parent may have started us with SIGINT blocked (Foundation's
    // Process does, from async code); this thread must still receive it.
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
  }

  static func end() {
    signal(SIGINT, SIG_DFL)
  }
}

import Locking

/// The daemon's round of ticks: each person's engine is ticked once a
/// round, in one of `slices` slices spread over it, chosen by their name.
/// Ticking 10,000 people at once held a core for 40–85 ms every 5 s
/// (Docs/Benchmarks.md, 2026-12-05). What goes once a round (the status,
/// the sweep, analytics) runs after the last slice.
final class TickRound: Sendable {
  static let seconds = 5.0
  static let slices = 10
  private let next = Locked(0)

  /// Seconds between slices.
  static var interval: Double { seconds / Double(slices) }

  /// The slice a person is ticked in: the same all their life (FNV-1a of the name).
  static func slice(of name: String) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return Int(hash % UInt64(slices))
  }

  /// The slice due now, and whether it ends the round; the next call gives the one after.
  func advance() -> (slice: Int, endsRound: Bool) {
    next.withLock { next in
      defer { next = (next + 1) % Self.slices }
      return (next, next == Self.slices - 1)
    }
  }
}

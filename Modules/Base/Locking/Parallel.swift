import Dispatch
import Foundation

/// Work on many items split over the machine's cores: a command that
/// decodes and prints 10,000 listings then waits for one core's share.
public enum Parallel {
  /// `body` applied to contiguous ranges that cover `0..<count` in order,
  /// at once, one range per core (at most four) and never fewer than
  /// `minimumPerPart` items in a range (one range, on the calling thread,
  /// below twice that); the results in the ranges' order.
  public static func map<Result: Sendable>(
    _ count: Int, minimumPerPart: Int, _ body: @Sendable (Range<Int>) -> Result
  ) -> [Result] {
    let parts = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4, count / max(1, minimumPerPart)))
    let range = { @Sendable (part: Int) in count * part / parts..<count * (part + 1) / parts }
    guard parts > 1 else { return [body(range(0))] }
    let results = Locked([Result?](repeating: nil, count: parts))
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      let result = body(range(part))
      results.withLock { $0[part] = result }
    }
    return results.withLock { $0.map { $0! } }
  }
}

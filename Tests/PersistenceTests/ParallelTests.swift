import Locking
import Testing

/// `Parallel.map` covers every item once, in order, in parts no smaller
/// than asked.
@Suite struct ParallelTests {
  @Test func everyRangeIsCoveredOnceInOrder() {
    for count in [0, 1, 1_999, 4_000, 4_001, 10_007] {
      let ranges = Parallel.map(count, minimumPerPart: 2_000) { $0 }
      #expect(ranges.flatMap { Array($0) } == Array(0..<count), "\(count)")
      if ranges.count > 1 { #expect(ranges.allSatisfy { $0.count >= 2_000 }, "\(count)") }
      if count < 4_000 { #expect(ranges.count == 1, "\(count): fewer than two parts' worth stays on one thread") }
    }
  }

  @Test func resultsComeInTheRangesOrder() {
    let sums = Parallel.map(100_000, minimumPerPart: 10_000) { range in range.reduce(0, +) }
    #expect(sums.reduce(0, +) == (0..<100_000).reduce(0, +))
    #expect(sums == sums.sorted(), "later ranges hold larger numbers")
  }
}

import Domain
import Testing

@testable import Geofencing

@Suite struct RadixSortTests {
  @Test(arguments: [0, 1, 2, 1000, 70_000])
  func sortsAsTheStandardSortDoes(count: Int) {
    var random = SplitMix64(seed: UInt64(count) + 1)
    var values = (0..<count).map { _ in UInt64.random(in: 0..<(1 << 51), using: &random) }
    let expected = values.sorted()
    RadixSort.sort(&values, bits: 51)
    #expect(values == expected)
  }

  /// Sorting by some bits only keeps equal ones in the order they came:
  /// a bulk load relies on it to keep a cell's slots ascending.
  @Test func sortingByHighBitsIsStable() {
    var random = SplitMix64(seed: 3)
    let cells = (0..<5000).map { _ in UInt64.random(in: 0..<64, using: &random) }
    var values = cells.enumerated().map { $0.element << 20 | UInt64($0.offset) }
    RadixSort.sort(&values, bits: 26, from: 20)
    let expected = cells.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }.map { $0.element << 20 | UInt64($0.offset) }
    #expect(values == expected)
  }
}

@Suite struct KeyTableTests {
  /// Against a Dictionary under random sets and removals, including keys
  /// that collide in their home bucket and negative ones.
  @Test func behavesAsADictionary() {
    var random = SplitMix64(seed: 9)
    var table = KeyTable()
    var reference: [Int: Int32] = [:]
    for step in 0..<40_000 {
      let key = Int.random(in: -300...3000, using: &random) * (step % 3 == 0 ? 1 << 20 : 1)
      if Bool.random(using: &random) {
        let slot = Int32(step)
        #expect(table.set(key, slot) == reference.updateValue(slot, forKey: key))
      } else {
        #expect(table.remove(key) == reference.removeValue(forKey: key))
      }
      #expect(table.count == reference.count)
    }
    for (key, slot) in reference { #expect(table.find(key) == slot) }
    #expect(table.find(123_456_789) == nil)
  }
}

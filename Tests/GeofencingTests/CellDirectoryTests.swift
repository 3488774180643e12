import Domain
import Testing

@testable import Geofencing

/// The bulk load's cell directory finds every cell it was given at its
/// position, and no other, before it is sealed (a binary search a row) and
/// after (dense rows a bitmap of blocks of 64 columns, sparse ones still
/// searched).
@Suite struct CellDirectoryTests {
  /// Rows of every kind: dense runs across block edges, one cell, columns
  /// far apart (searched), a row left empty between others, the last column.
  static func cells(random: inout SplitMix64) -> [(row: Int64, column: Int64)] {
    var cells: [(Int64, Int64)] = []
    for column in Int64(60)...Int64(200) where column % 3 != 0 { cells.append((10, column)) }
    cells.append((11, 63))
    for column: Int64 in [0, 64, 35_999] { cells.append((12, column)) }
    // Row 13 has no cells.
    for column in Int64(0)..<Int64(128) { cells.append((14, column)) }
    for row in Int64(15)...Int64(40) {
      var columns = Set<Int64>()
      let dense = row % 2 == 0
      for _ in 0..<(dense ? 300 : 6) { columns.insert(Int64.random(in: (dense ? 1000 : 0)...(dense ? 1600 : 35_999), using: &random)) }
      cells += columns.sorted().map { (row, $0) }
    }
    return cells
  }

  @Test func findsEachCellAtItsPositionAndNoOther() {
    var random = SplitMix64(seed: 5)
    let cells = Self.cells(random: &random)
    var directory = CellDirectory()
    for cell in cells { directory.append(row: cell.row, column: cell.column) }
    let positions = Dictionary(uniqueKeysWithValues: cells.enumerated().map { ("\($1.row)/\($1.column)", Int32($0)) })
    var probes: [(Int64, Int64)] = cells.map { ($0.row, $0.column) }
    for row in Int64(8)...Int64(42) {
      for column: Int64 in [0, 1, 62, 63, 64, 65, 127, 128, 191, 192, 999, 1000, 1601, 35_998, 35_999] { probes.append((row, column)) }
      for _ in 0..<200 { probes.append((row, Int64.random(in: 0...35_999, using: &random))) }
    }
    for sealed in [false, true] {
      if sealed { directory.seal() }
      for (row, column) in probes {
        #expect(directory.find(row: row, column: column) == positions["\(row)/\(column)"], "row \(row) column \(column), sealed \(sealed)")
      }
    }
  }
}

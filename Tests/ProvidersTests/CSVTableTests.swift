import Foundation
import Testing

@testable import Importing

@Suite struct CSVTableTests {
  /// The fast path for plain decimals must give strtod's double exactly,
  /// or the matcher's answers would drift from gen.py's and grid.c's.
  @Test func plainDecimalsReadAsStrtodReadsThem() {
    var random = SystemRandomNumberGenerator()
    var samples = ["0", "-0", "+7", "1.", ".5", "0.000000000000001", "123456789012345", "-179.9999999", "90.0000000", "0.1", "2.675"]
    for _ in 0..<20_000 {
      let places = Int.random(in: 0...12, using: &random)
      let value = Double.random(in: -500...500, using: &random)
      samples.append(String(format: "%.\(places)f", value))
    }
    for text in samples {
      let bytes = Array(text.utf8)
      let scanned = bytes.withUnsafeBufferPointer { CSVTable.scanDecimal($0, from: 0, to: $0.count) }
      let expected = strtod(text, nil)
      if let value = scanned.value {
        #expect(value.bitPattern == expected.bitPattern, "\(text)")
        #expect(scanned.stop == bytes.count)
      }
    }
    // The scales: exact powers of ten up to 10^22, none beyond.
    for exponent in 0...22 {
      #expect(CSVTable.powerOfTen(exponent) == (0..<exponent).reduce(1.0) { value, _ in value * 10 }, "10^\(exponent)")
    }
    #expect(CSVTable.powerOfTen(23) == nil && CSVTable.powerOfTen(-1) == nil)
    // More than 15 significant digits and exponents are left to strtod.
    for text in ["1234567890123456", "1e5", "0.12345678901234567"] {
      let scanned = Array(text.utf8).withUnsafeBufferPointer { CSVTable.scanDecimal($0, from: 0, to: $0.count) }
      #expect(scanned.value == nil || scanned.stop < text.utf8.count, "\(text)")
    }
  }

  @Test func numbersStrtodReadsStillReadAndBadOnesNameTheirLine() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("csvtable-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let good = directory.appendingPathComponent("good.csv").path
    try "lat,lon\r\n1e1,-2.50\r\n\r\n60.1234567890123456,+24\n".write(toFile: good, atomically: true, encoding: .utf8)
    let table = try CSVTable.read(good, columns: ["lat", "lon"])
    #expect(table.values == [10, -2.5, 60.1234567890123456, 24])
    for (text, message) in [("lat,lon\n1,2,3\n", "more than 2 fields"), ("lat,lon\n1,\n", "field 2 is empty"), ("lat,lon\n1,2x\n", "field 2 is not a number"), ("lat,lon\n1\n", "1 fields, expected 2")] {
      let path = directory.appendingPathComponent("bad.csv").path
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let error = #expect(throws: CSVTable.Failure.self) { try CSVTable.read(path, columns: ["lat", "lon"]) }
      #expect(error?.line == 2 && error?.message.contains(message) == true, "\(text): \(String(describing: error))")
    }
  }

  /// Text and numbers are read by one tokenizer, with the same rules and line numbers.
  @Test func savedListsAndNumericFilesFollowTheSameRules() throws {
    let text = "name,note\r\n\"Alko, Forum\",\"said \"\"hi\"\"\nthen left\"\r\nplain,\r\n\nlast,one"
    let records = try CSVReader.records(text, file: "list.csv")
    #expect(records.map(\.fields) == [["name", "note"], ["Alko, Forum", "said \"hi\"\nthen left"], ["plain", ""], [""], ["last", "one"]])
    #expect(records.map(\.line) == [1, 2, 4, 5, 6], "a record starts on its own line; a newline inside quotes counts")
    #expect(try CSVReader.records("a,", file: "f").map(\.fields) == [["a", ""]])
    let open = #expect(throws: ImportError.self) { try CSVReader.records("a\n\"never closed\nb", file: "f.csv") }
    #expect(open?.line == 2)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("csvtable-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("quoted.csv").path
    try "\"lat\",lon\n\"1.5\",2\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(try CSVTable.read(path, columns: ["lat", "lon"]).values == [1.5, 2], "quotes are CSV's, for numbers too")
    try "lat,lon\n1,2\n\"3\n".write(toFile: path, atomically: true, encoding: .utf8)
    let unterminated = #expect(throws: CSVTable.Failure.self) { try CSVTable.read(path, columns: ["lat", "lon"]) }
    #expect(unterminated?.line == 3)
  }
}

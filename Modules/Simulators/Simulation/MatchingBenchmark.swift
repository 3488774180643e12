import Domain
import Foundation
import Importing
import Providers

/// `whilehere-sim bench matching`: how well saved-list rows match provider
/// places, against ../shared/data/takeout/truth.json: precision and recall
/// of automatic matches, and how often the right place is among the top
/// three candidates.
public enum MatchingBenchmark {
  public struct Report: Sendable {
    public var rows = 0
    public var rowsWithTruth = 0
    public var accepted = 0
    public var acceptedCorrect = 0
    public var topThree = 0
    /// Rows with a true place that were not accepted automatically, and of
    /// those, how many show it among the first three candidates (what a
    /// person reviewing sees; the figure #13 sets an aim for).
    public var leftWithTruth = 0
    public var leftTopThree = 0
    public var wrong: [String] = []
    public var missed: [String] = []
    public var files: [String] = []
    public var seconds = 0.0

    public var precision: Double { accepted == 0 ? 1 : Double(acceptedCorrect) / Double(accepted) }
    public var recall: Double { rowsWithTruth == 0 ? 0 : Double(acceptedCorrect) / Double(rowsWithTruth) }
    public var topThreeRate: Double { rowsWithTruth == 0 ? 0 : Double(topThree) / Double(rowsWithTruth) }
    public var leftTopThreeRate: Double { leftWithTruth == 0 ? 1 : Double(leftTopThree) / Double(leftWithTruth) }
  }

  public static func run(takeout directory: String, provider: any PlaceProvider) throws -> Report {
    let truthPath = directory + "/truth.json"
    guard let data = FileManager.default.contents(atPath: truthPath), let root = try? JSONParser.parse(data),
      let listed = root.members?["files"]?.members
    else { throw ImportError(file: truthPath, line: nil, message: "not a truth file with 'files'") }
    // Variants point at the file whose truth they share ("same rows as Groceries.csv").
    let files = listed.compactMapValues { value -> [[String: JSONValue]]? in
      guard case .array(let entries) = value else { return nil }
      return entries.compactMap(\.members)
    }
    let matcher = PlaceMatcher(provider: provider)
    var report = Report()
    let started = ContinuousClock.now
    for (name, entries) in files.sorted(by: { $0.key < $1.key }) {
      let variant = name.hasSuffix(".csv")
        ? name.replacingOccurrences(of: ".csv", with: ".no-tags-format.csv") : name.replacingOccurrences(of: ".json", with: ".new-format.json")
      let paths = [directory + "/" + name, directory + "/variants/" + variant]
      for path in paths where FileManager.default.fileExists(atPath: path) {
        let list = try TakeoutList.read(path)
        report.files.append((path as NSString).lastPathComponent)
        for row in list.rows {
          report.rows += 1
          // CSV rows count from 1; JSON features from 0.
          func number(_ value: JSONValue?) -> Int? { value?.numberValue.flatMap { Int(exactly: $0) } }
          guard let entry = entries.first(where: { (number($0["row"]) ?? number($0["feature"]).map { $0 + 1 }) == row.number }) else { continue }
          let truth = entry["osm_id"]?.stringValue
          let also = entry["also_acceptable"]?.elements?.compactMap(\.stringValue) ?? []
          let acceptable = Set(([truth] + also.map { Optional($0) }).compactMap { $0.map { "osm:" + $0 } })
          let match = try matcher.match(row.title, near: row.coordinate)
          if truth != nil { report.rowsWithTruth += 1 }
          if case .accepted(let place) = match.decision {
            report.accepted += 1
            if acceptable.contains(place.ref) {
              report.acceptedCorrect += 1
            } else {
              report.wrong.append("\(row.title) → \(place.name)")
            }
          } else if truth != nil {
            report.leftWithTruth += 1
            let inTopThree = match.candidates.prefix(3).contains(where: { acceptable.contains($0.place.ref) })
            if inTopThree { report.leftTopThree += 1 }
            report.missed.append(
              row.title + " (" + (match.candidates.first.map { "\($0.place.name) \(String(format: "%.2f", $0.score))" } ?? "no candidate") + ")"
                + (inTopThree ? "" : " — the right place is not among the top three"))
          }
          if truth != nil, match.candidates.prefix(3).contains(where: { acceptable.contains($0.place.ref) }) { report.topThree += 1 }
        }
      }
    }
    let elapsed = ContinuousClock.now - started
    report.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return report
  }
}

import Foundation

/// `bench detection --plot FILE.svg`: visit recall (and pass-by recall)
/// against battery per day, one point per strategy, on the same person-days,
/// with the aims drawn (≥ 99 % of visits within ≤ 1 % battery a day).
public enum DetectionPlot {
  public static func svg(_ report: DetectionBenchmark.Report) -> String {
    let rows = report.scores.map { $0.row(world: report.world) }
    let points: [(name: String, battery: Double, visits: Double, passBys: Double)] = rows.map { row in
      (row.strategy, row.batteryPercentPerDay, row.visitRecall, row.passByRecall)
    }
    let width = 760.0, height = 480.0, left = 70.0, right = 200.0, top = 50.0, bottom = 60.0
    let maxBattery = max(2, (points.map(\.battery).max() ?? 1) * 1.1)
    func x(_ battery: Double) -> Double { left + battery / maxBattery * (width - left - right) }
    func y(_ recall: Double) -> Double { height - bottom - recall / 100 * (height - top - bottom) }
    func escape(_ text: String) -> String {
      text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
    func f(_ value: Double) -> String { String(format: "%.1f", value) }
    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="#fff"/>
      <text x="\(f(left))" y="22" font-size="14" font-weight="bold">Recall against battery per day</text>
      <text x="\(f(left))" y="36" font-size="10" fill="#555">\(escape(String((report.header.split(separator: "\n").first ?? "").prefix(110))))</text>

      """
    for step in 0...10 {
      let recall = Double(step) * 10
      svg += "<line x1=\"\(f(left))\" y1=\"\(f(y(recall)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(recall)))\" stroke=\"#eee\"/>"
      svg += "<text x=\"\(f(left - 8))\" y=\"\(f(y(recall) + 4))\" text-anchor=\"end\">\(Int(recall)) %</text>\n"
    }
    let ticks = Int(maxBattery.rounded(.up))
    for battery in 0...ticks where Double(battery) <= maxBattery {
      svg += "<text x=\"\(f(x(Double(battery))))\" y=\"\(f(height - bottom + 18))\" text-anchor=\"middle\">\(battery) %</text>\n"
    }
    svg += "<text x=\"\(f((left + width - right) / 2))\" y=\"\(f(height - 16))\" text-anchor=\"middle\">battery per day</text>\n"
    svg += "<text x=\"18\" y=\"\(f((top + height - bottom) / 2))\" transform=\"rotate(-90 18 \(f((top + height - bottom) / 2)))\" text-anchor=\"middle\">recall</text>\n"
    // The aim: the corner above 99 % and left of 1 %.
    svg += "<rect x=\"\(f(x(0)))\" y=\"\(f(y(100)))\" width=\"\(f(x(1) - x(0)))\" height=\"\(f(y(99) - y(100)))\" fill=\"#2ca02c33\" stroke=\"#2ca02c\"/>"
    svg += "<text x=\"\(f(x(1) + 4))\" y=\"\(f(y(99) + 4))\" fill=\"#2ca02c\">aim</text>\n"
    for (index, point) in points.enumerated() {
      let label = y(point.visits) + (index % 2 == 0 ? -6 : 14)
      svg += "<circle cx=\"\(f(x(point.battery)))\" cy=\"\(f(y(point.visits)))\" r=\"5\" fill=\"#1f77b4\"><title>\(escape(point.name)): visits \(f(point.visits)) %, battery \(String(format: "%.2f", point.battery)) %/day</title></circle>"
      svg += "<rect x=\"\(f(x(point.battery) - 4))\" y=\"\(f(y(point.passBys) - 4))\" width=\"8\" height=\"8\" fill=\"#ff7f0e\"/>"
      svg += "<line x1=\"\(f(x(point.battery)))\" y1=\"\(f(y(point.visits)))\" x2=\"\(f(x(point.battery)))\" y2=\"\(f(y(point.passBys)))\" stroke=\"#bbb\"/>"
      svg += "<text x=\"\(f(x(point.battery) + 8))\" y=\"\(f(label))\">\(escape(point.name))</text>\n"
    }
    svg += "<circle cx=\"\(f(width - right + 20))\" cy=\"\(f(top + 10))\" r=\"5\" fill=\"#1f77b4\"/><text x=\"\(f(width - right + 30))\" y=\"\(f(top + 14))\">visit recall</text>"
    svg += "<rect x=\"\(f(width - right + 16))\" y=\"\(f(top + 26))\" width=\"8\" height=\"8\" fill=\"#ff7f0e\"/><text x=\"\(f(width - right + 30))\" y=\"\(f(top + 34))\">pass-by recall</text>\n"
    svg += "</svg>\n"
    return svg
  }
}

import Foundation

/// The detection table as text or JSON lines.
public enum DetectionReportFormatter {
  public static func text(_ report: DetectionBenchmark.Report) -> String {
    var lines = [report.header, ""]
    let columns = [
      "strategy", "visit rec", "pass-by rec", "task-day rec", "med delay", "p95 delay", "false al.", "precise min/d", "coarse min/d", "battery %/d", "wakes/d",
      "replans/d", "max regions", "days/s",
    ]
    var rows = [columns]
    for score in report.scores {
      let row = score.row(world: report.world)
      func pct(_ value: Double) -> String { String(format: "%.1f%%", value) }
      func num(_ value: Double?, _ format: String = "%.1f") -> String { value.map { String(format: format, $0) } ?? "-" }
      rows.append([
        score.strategy, pct(row.visitRecall) + " /\(score.visits)", pct(row.passByRecall) + " /\(score.passBys)",
        pct(row.taskDayRecall) + " /\(score.taskDays)",
        num(row.medianDelay, "%.0f s"), num(row.p95Delay, "%.0f s"), pct(row.falseAlarmPercent) + " /\(score.fires)",
        num(row.preciseMinutesPerDay), num(row.reducedMinutesPerDay, "%.0f"), num(row.batteryPercentPerDay, "%.2f"), num(row.wakesPerDay, "%.0f"), num(row.replansPerDay),
        "\(score.peakRegions)" + (score.regionFailures > 0 ? " (\(score.regionFailures) refused)" : ""),
        num(row.personDaysPerSecond, "%.0f"),
      ])
    }
    let widths = columns.indices.map { i in rows.map { $0[i].count }.max()! }
    for row in rows {
      lines.append(row.enumerated().map { i, cell in i == 0 ? cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) : String(repeating: " ", count: widths[i] - cell.count) + cell }.joined(separator: "  "))
    }
    lines.append("")
    lines.append(String(format: "simulated %.0f person-days (%.1f h) in %.1f s, all strategies; days/s counts each strategy alone", Double(report.scores.first?.trips ?? 0), report.simulatedSeconds / 3600, report.wallSeconds))
    lines.append("a day is a whole day: home, work on work days, errand trips, one rolling budget; battery counts GPS, reduced-accuracy updates (coarse min) and background wakes")
    lines.append("a fire counts from 30 s before the first second inside to the last; runs < 60 s apart are one interval; visits >= 2 min, pass-bys >= 20 s; false alarm: not within radius + 50 m in the 5 min before")
    for score in report.scores where !score.notes.isEmpty {
      lines.append("\(score.strategy): " + score.notes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }
    return lines.joined(separator: "\n")
  }

  public static func json(_ report: DetectionBenchmark.Report) -> String {
    report.scores.map { score in
      score.row(world: report.world).json(world: report.world).compactText
    }.joined(separator: "\n")
  }
}

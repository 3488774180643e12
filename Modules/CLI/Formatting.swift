import Foundation

enum Formatting {
  static func meters(_ value: Double) -> String {
    value >= 1000 ? String(format: "%.1f km", value / 1000) : "\(Int(value.rounded())) m"
  }

  static func coordinate(_ lat: Double, _ lon: Double) -> String {
    String(format: "%.6f,%.6f", lat, lon)
  }

  static func time(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }
}

import Domain
import Foundation

/// The last plausible report a device made, and implausible ones since.
struct ReportTrack {
  var point: Coordinate
  var accuracy: Double
  var at: Date
  var outliers = 0
}

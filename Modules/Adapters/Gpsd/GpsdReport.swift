import Domain
import Foundation
import Geofencing

/// Reads gpsd's JSON reports: a `TPV` with a 2D or 3D fix becomes a fix;
/// everything else (VERSION, DEVICES, SKY, no-fix TPVs) is nothing.
public enum GpsdReport {
  /// `receivedAt` stamps the fix: gpsd's own `time` is the receiver's, which
  /// can be years off after a GPS week rollover.
  public static func fix(from line: Data, receivedAt: Date) -> PhoneFix? {
    guard case .object(let object)? = try? JSONParser.parse(line), case .string("TPV")? = object["class"],
      case .number(let mode)? = object["mode"], mode >= 2,
      case .number(let latitude)? = object["lat"], case .number(let longitude)? = object["lon"],
      let coordinate = try? Coordinate(latitude: latitude, longitude: longitude)
    else { return nil }
    func number(_ key: String) -> Double? {
      if case .number(let value)? = object[key], value.isFinite, value >= 0 { return value }
      return nil
    }
    let horizontal = number("eph") ?? [number("epx"), number("epy")].compactMap { $0 }.max()
    return PhoneFix(coordinate: coordinate, accuracy: horizontal, at: receivedAt, trigger: "gpsd")
  }

  /// What gpsd needs to start streaming JSON reports.
  public static let watch = Data(#"?WATCH={"enable":true,"json":true}"#.utf8 + [0x0A])
}

import Foundation

/// NMEA 0183 sentences ($GPRMC and $GPGGA, with checksums) for a list of
/// fixes, so gpsfake can replay a real trace into a private gpsd.
public enum NMEAWriter {
  public struct Fix: Sendable {
    public let time: Date
    public let latitude: Double
    public let longitude: Double

    public init(time: Date, latitude: Double, longitude: Double) {
      self.time = time
      self.latitude = latitude
      self.longitude = longitude
    }
  }

  public static func sentences(_ fixes: [Fix]) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return fixes.map { fix -> String in
      let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: fix.time)
      let time = String(format: "%02d%02d%02d.00", parts.hour!, parts.minute!, parts.second!)
      let date = String(format: "%02d%02d%02d", parts.day!, parts.month!, parts.year! % 100)
      let (latitude, north) = degreesMinutes(fix.latitude, width: 2, positive: "N", negative: "S")
      let (longitude, east) = degreesMinutes(fix.longitude, width: 3, positive: "E", negative: "W")
      let rmc = "GPRMC,\(time),A,\(latitude),\(north),\(longitude),\(east),0.5,0.0,\(date),,,A"
      let gga = "GPGGA,\(time),\(latitude),\(north),\(longitude),\(east),1,08,0.9,20.0,M,18.0,M,,"
      return "$\(rmc)*\(checksum(rmc))\r\n$\(gga)*\(checksum(gga))\r\n"
    }.joined()
  }

  static func degreesMinutes(_ value: Double, width: Int, positive: String, negative: String) -> (String, String) {
    let magnitude = abs(value)
    let degrees = Int(magnitude)
    let minutes = (magnitude - Double(degrees)) * 60
    return (String(format: "%0\(width)d%07.4f", degrees, minutes), value >= 0 ? positive : negative)
  }

  static func checksum(_ body: String) -> String {
    String(format: "%02X", body.utf8.reduce(UInt8(0), ^))
  }
}

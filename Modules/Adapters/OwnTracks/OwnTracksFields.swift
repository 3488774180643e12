import Domain
import Foundation

/// Typed, range-checked reads of one message's fields; every failure names
/// the message type and the field.
struct OwnTracksFields {
  let type: String
  let object: [String: JSONValue]

  func number(_ key: String, in range: ClosedRange<Double>? = nil) throws -> Double? {
    guard let value = object[key], value != .null else { return nil }
    guard case .number(let number) = value else {
      throw OwnTracksError("\(type).\(key) must be a number, not \(value.typeName)")
    }
    guard number.isFinite else { throw OwnTracksError("\(type).\(key) must be finite") }
    if let range, !range.contains(number) {
      throw OwnTracksError("\(type).\(key) is \(number), outside \(range.lowerBound)…\(range.upperBound)")
    }
    return number
  }

  func required(_ key: String, in range: ClosedRange<Double>? = nil) throws -> Double {
    guard let number = try number(key, in: range) else { throw OwnTracksError("\(type).\(key) is missing") }
    return number
  }

  func string(_ key: String, maxLength: Int = 512) throws -> String? {
    guard let value = object[key], value != .null else { return nil }
    guard case .string(let text) = value else {
      throw OwnTracksError("\(type).\(key) must be a string, not \(value.typeName)")
    }
    guard text.utf8.count <= maxLength else { throw OwnTracksError("\(type).\(key) is longer than \(maxLength) bytes") }
    return text
  }

  /// `tst` and friends: epoch seconds, not before 2000 nor more than a day ahead.
  func time(_ key: String, now: Date, required: Bool = true) throws -> Date? {
    let latest = now.timeIntervalSince1970 + 86_400
    guard let seconds = try number(key, in: 946_684_800...max(latest, 946_684_800)) else {
      if required { throw OwnTracksError("\(type).\(key) is missing") }
      return nil
    }
    return Date(timeIntervalSince1970: seconds)
  }

  func coordinate(required: Bool) throws -> Coordinate? {
    let latitude = try number("lat", in: -90...90)
    let longitude = try number("lon", in: -180...180)
    switch (latitude, longitude) {
    case (let latitude?, let longitude?): return try Coordinate(latitude: latitude, longitude: longitude)
    case (nil, nil) where !required: return nil
    case (nil, _): throw OwnTracksError("\(type).lat is missing")
    case (_, nil): throw OwnTracksError("\(type).lon is missing")
    }
  }
}

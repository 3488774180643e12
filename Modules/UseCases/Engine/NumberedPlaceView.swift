import Domain
import Foundation
import Providers

/// A place offered to pick from, as `--json` prints it: its number in the
/// list (what the person types back), its reference and where it is, with
/// what the listing knows of it. A field a listing does not know (a
/// distance without `--near`, a score outside import review) is left out,
/// never printed as 0. The daemon's `/api/v1/suggestions` answers the same.
public struct NumberedPlaceView: Encodable, Sendable {
  public let number: Int
  public let ref: String
  public let name: String
  public let category: String
  public let address: String?
  public let lat: Double
  public let lon: Double
  public var distance: Double?
  public var score: Double?
  public var reason: String?
  /// OSM `opening_hours`, and whether that says open now (left out when
  /// the place has none, or hours in a form not understood).
  public var hours: String?
  public var open: Bool?

  public init(
    number: Int, ref: String, name: String, category: String, address: String?, at coordinate: Coordinate,
    distance: Double? = nil, score: Double? = nil, reason: String? = nil
  ) {
    self.number = number
    self.ref = ref
    self.name = name
    self.category = category
    self.address = address
    lat = coordinate.latitude
    lon = coordinate.longitude
    self.distance = distance
    self.score = score
    self.reason = reason
  }

  /// The same with the place's opening hours read at `now` in `timeZone`.
  public func with(hours text: String?, at now: Date, in timeZone: TimeZone) -> NumberedPlaceView {
    var view = self
    view.hours = text
    view.open = text.flatMap { OpeningHours($0) }?.isOpen(at: now, in: timeZone)
    return view
  }

  /// "open now" or "closed now", when known.
  public var openText: String? { open.map { $0 ? "open now" : "closed now" } }

  /// Suggestions as offered to pick from, numbered from 1.
  public static func suggestions(_ suggestions: [Suggester.Suggestion], at now: Date, in timeZone: TimeZone) -> [NumberedPlaceView] {
    suggestions.enumerated().map { index, s in
      NumberedPlaceView(
        number: index + 1, ref: s.place.ref, name: s.place.name, category: s.place.category, address: s.place.address,
        at: s.place.coordinate, distance: s.distance, reason: s.reason
      ).with(hours: s.place.openingHours, at: now, in: timeZone)
    }
  }
}

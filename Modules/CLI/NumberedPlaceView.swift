import Domain
import Foundation

/// A place offered to pick from, as `--json` prints it: its number in the
/// list (what the person types back), its reference and where it is, with
/// what the listing knows of it. A field a listing does not know (a
/// distance without `--near`, a score outside import review) is left out,
/// never printed as 0.
struct NumberedPlaceView: Encodable {
  let number: Int
  let ref: String
  let name: String
  let category: String
  let address: String?
  let lat: Double
  let lon: Double
  var distance: Double?
  var score: Double?
  var reason: String?
  /// OSM `opening_hours`, and whether that says open now (left out when
  /// the place has none, or hours in a form not understood).
  var hours: String?
  var open: Bool?

  init(
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
  func with(hours text: String?, at now: Date, in timeZone: TimeZone) -> NumberedPlaceView {
    var view = self
    view.hours = text
    view.open = text.flatMap { OpeningHours($0) }?.isOpen(at: now, in: timeZone)
    return view
  }

  /// "open now" or "closed now", when known.
  var openText: String? { open.map { $0 ? "open now" : "closed now" } }
}

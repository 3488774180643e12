import Domain

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
}

import Domain
import Foundation

/// A saved place as `--json` prints it.
struct PlaceView: Encodable {
  let id: String
  let name: String
  let lat: Double?
  let lon: Double?
  let address: String?
  let tags: [String]
  let note: String
  let lists: [String]?
  let distance: Double?
  let provider: String?
  /// Whether the provider's cached data has passed its expiry (it is still
  /// shown until refreshed; the person's own data never expires).
  let providerExpired: Bool?

  init(_ place: Place, lists: [String]? = nil, distance: Double? = nil, now: Date = Date()) {
    id = place.id.rawValue
    name = place.name
    lat = place.coordinate?.latitude
    lon = place.coordinate?.longitude
    address = place.address
    tags = place.personal.tags
    note = place.personal.note
    self.lists = lists
    self.distance = distance
    provider = place.provider?.ref
    providerExpired = place.provider.map { $0.isExpired(at: now) }
  }

  func line(_ style: Style) -> String {
    var line = style.bold(CleanText.escaped(name)) + "  " + style.dim(id)
    if let lat, let lon { line += "  " + Formatting.coordinate(lat, lon) }
    if let distance { line += "  " + Formatting.meters(distance) + " away" }
    if !tags.isEmpty { line += "  #" + CleanText.escaped(tags.joined(separator: " #")) }
    if let lists, !lists.isEmpty { line += "  " + style.dim("in " + CleanText.escaped(lists.joined(separator: ", "))) }
    return line
  }

  func detailLines(_ style: Style) -> [String] {
    var lines = [line(style)]
    if let address { lines.append("  address: \(CleanText.escaped(address))") }
    if !note.isEmpty {
      lines.append("  note: " + note.split(separator: "\n", omittingEmptySubsequences: false).map { CleanText.escaped(String($0)) }.joined(separator: "\n        "))
    }
    if let provider { lines.append("  provider: \(provider)" + (providerExpired == true ? " (cached data expired; refresh pending)" : "")) }
    return lines
  }
}

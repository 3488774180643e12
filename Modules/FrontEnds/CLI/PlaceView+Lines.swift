import Domain
import Engine

extension PlaceView {
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
    if let hours { lines.append("  hours: \(CleanText.escaped(hours))") }
    return lines
  }
}

import Foundation
import Gateway

/// The map page's files: its own HTML, CSS, JavaScript modules and offline
/// basemap (bundled), and Leaflet from Debian's libjs-leaflet. Only named
/// files are served, so no path reaches anything else on disk. Every answer
/// carries a Content-Security-Policy without inline scripts.
public struct WebAssets: Sendable {
  /// Where Debian's libjs-leaflet puts Leaflet.
  public static let debianLeaflet = "/usr/share/javascript/leaflet"
  let leaflet: String
  /// An XYZ tile URL template (`https://tile.example.org/{z}/{x}/{y}.png`), or "" for the offline basemap.
  let tiles: String
  let attribution: String
  /// The live demo's name and password, which the page fills in (only `whilehered --demo`).
  let demo: String?

  public init(leaflet: String = WebAssets.debianLeaflet, tiles: String = "", attribution: String = "", demo: String? = nil) {
    self.leaflet = leaflet
    self.tiles = tiles
    self.attribution = attribution
    self.demo = demo
  }

  static let ownFiles: Set<String> = ["index.html", "app.js", "app.css", "api.js", "map.js", "ui.js", "places.js", "importing.js", "basemap.geojson"]
  static let leafletFiles: Set<String> = [
    "leaflet.js", "leaflet.css", "images/layers.png", "images/layers-2x.png", "images/marker-icon.png", "images/marker-icon-2x.png",
    "images/marker-shadow.png",
  ]

  /// The answer for a path under `/app/` (`""` is the page), or nil when
  /// no such file is served.
  public func response(for path: String) -> HTTPResponse? {
    let name = path.isEmpty ? "index.html" : path
    if name == "config.json" { return configuration() }
    let data: Data?
    if Self.ownFiles.contains(name) {
      data = Self.bundled(name)
    } else if name.hasPrefix("leaflet/"), Self.leafletFiles.contains(String(name.dropFirst("leaflet/".count))) {
      data = FileManager.default.contents(atPath: leaflet + "/" + name.dropFirst("leaflet/".count))
      if data == nil, name == "leaflet/leaflet.js" { return missingLeaflet() }
    } else {
      return nil
    }
    guard let data else { return nil }
    return HTTPResponse(status: 200, headers: headers(type: Self.type(of: name)), body: data)
  }

  /// What the page needs to know that HTML cannot carry without an inline script.
  func configuration() -> HTTPResponse {
    struct Body: Encodable {
      let tiles: String
      let attribution: String
      let demo: String?
    }
    var response = HTTPResponse.json(200, encoding: Body(tiles: tiles, attribution: attribution, demo: demo))
    response.headers.merge(headers(type: "application/json")) { _, new in new }
    return response
  }

  /// The page still loads and says what to install.
  func missingLeaflet() -> HTTPResponse {
    let script = "document.documentElement.dataset.missing = 'Leaflet is not installed on the server: apt-get install libjs-leaflet';\n"
    return HTTPResponse(status: 200, headers: headers(type: "text/javascript; charset=utf-8"), body: Data(script.utf8))
  }

  /// The security headers every page file carries.
  public func headers(type: String) -> [String: String] {
    let tileSource = Self.origin(of: tiles).map { " " + $0 } ?? ""
    return [
      "Content-Type": type,
      "Content-Security-Policy":
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:\(tileSource); connect-src 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      "Cache-Control": "no-cache",
    ]
  }

  /// `https://tile.example.org` of a tile URL template.
  static func origin(of template: String) -> String? {
    guard let url = URL(string: template.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")),
      let scheme = url.scheme, ["http", "https"].contains(scheme), let host = url.host
    else { return nil }
    return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
  }

  static func type(of name: String) -> String {
    switch name.split(separator: ".").last {
    case "html": return "text/html; charset=utf-8"
    case "js": return "text/javascript; charset=utf-8"
    case "css": return "text/css; charset=utf-8"
    case "png": return "image/png"
    case "geojson": return "application/geo+json"
    default: return "application/octet-stream"
    }
  }

  static func bundled(_ name: String) -> Data? {
    guard let directory = Bundle.module.url(forResource: "web", withExtension: nil) else { return nil }
    return try? Data(contentsOf: directory.appendingPathComponent(name))
  }
}

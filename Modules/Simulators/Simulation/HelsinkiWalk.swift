import Foundation

/// The embedded default scenario: a 25-minute walk through central Helsinki
/// past real places (OpenStreetMap, © OpenStreetMap contributors, ODbL 1.0).
/// It works with no files: the places are copied here from
/// ../shared/data/helsinki-pois.geojson with their OSM ids.
public enum HelsinkiWalk {
  public static var scenario: Scenario {
    // The literal below is valid by construction; a test decodes it.
    try! Scenario.decode(Data(json.utf8), source: "embedded Helsinki walk")
  }

  public static let json = #"""
    {
      "name": "Helsinki walk: Kaisaniemi to Kasarmitori",
      "attribution": "Places © OpenStreetMap contributors, ODbL 1.0",
      "start": "2026-06-01T09:00:00Z",
      "places": [
        {"name": "S-Market Hakaniemi", "lat": 60.177823, "lon": 24.94972, "address": "Siltasaarenkatu 6-10", "tags": ["grocery"], "osm": "node/349041876"},
        {"name": "K-Supermarket Kaisaniemi", "lat": 60.17125, "lon": 24.947849, "address": "Kaisaniemenkatu 5", "tags": ["grocery"], "osm": "node/4788270822"},
        {"name": "S-Market Kasarmitori", "lat": 60.165006, "lon": 24.94821, "address": "Kasarmikatu 19", "tags": ["grocery"], "osm": "node/299983963"},
        {"name": "Pääposti", "lat": 60.171642, "lon": 24.938543, "address": "Elielinaukio 2", "tags": ["post"], "osm": "node/56431331"},
        {"name": "Yliopiston apteekki", "lat": 60.169496, "lon": 24.939695, "address": "Mannerheimintie 5", "tags": ["pharmacy"], "osm": "node/1369465698"},
        {"name": "Apteekki Bulevardia", "lat": 60.16438, "lon": 24.93669, "address": "Bulevardi 13", "tags": ["pharmacy"], "osm": "node/1377222624"},
        {"name": "Stockmann", "lat": 60.168294, "lon": 24.942156, "address": "Aleksanterinkatu 52", "tags": ["department store"], "osm": "way/122595241"}
      ],
      "tasks": [
        {"title": "Buy milk", "at": ["S-Market Hakaniemi", "K-Supermarket Kaisaniemi", "S-Market Kasarmitori"], "radius": [150, 80, 100], "keywords": ["milk"]},
        {"title": "Post the parcel", "at": ["Pääposti"], "radius": [60]},
        {"title": "Pick up prescription", "at": ["Yliopiston apteekki", "Apteekki Bulevardia"], "radius": [40, 50]},
        {"title": "Return the gloves", "at": ["Stockmann"], "radius": [70]}
      ],
      "answers": {
        "Buy milk": "done",
        "Post the parcel": "later 2h",
        "Pick up prescription": "ignore",
        "Return the gloves": "done"
      },
      "walk": {
        "speed": 1.4,
        "waypoints": [
          {"lat": 60.1745, "lon": 24.9460, "label": "Kaisaniemi park"},
          {"lat": 60.1716, "lon": 24.9470, "pause": 240, "label": "K-Supermarket Kaisaniemi"},
          {"lat": 60.1712, "lon": 24.9420},
          {"lat": 60.1714, "lon": 24.9388, "pause": 120, "label": "Pääposti"},
          {"lat": 60.1697, "lon": 24.9398},
          {"lat": 60.1683, "lon": 24.9417, "pause": 300, "label": "Stockmann"},
          {"lat": 60.1672, "lon": 24.9440},
          {"lat": 60.1652, "lon": 24.9478, "pause": 180, "label": "Kasarmitori"}
        ]
      }
    }
    """#
}

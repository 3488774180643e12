import Domain
import Foundation
import Importing
import Testing
import TestSupport

/// KML (Google My Maps), GPX waypoints and GeoJSON points become import
/// rows with their coordinates; broken files name the file and line.
@Suite struct OtherFormatTests {
  func read(_ name: String, _ text: String) throws -> TakeoutList {
    let directory = TemporaryDirectory()
    return try TakeoutList.read(directory.write(name, text))
  }

  @Test func readsAGoogleMyMapsKML() throws {
    let list = try read(
      "Trip.kml",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <kml xmlns="http://www.opengis.net/kml/2.2">
        <Document>
          <name>Helsinki errands</name>
          <Folder>
            <name>Shops</name>
            <Placemark>
              <name>K-Market Asema</name>
              <description><![CDATA[Milk & <b>bread</b>]]></description>
              <Point><coordinates>
                24.9384,60.1708,0
              </coordinates></Point>
            </Placemark>
            <Placemark><name>Route home</name><LineString><coordinates>24.9,60.1 24.95,60.2</coordinates></LineString></Placemark>
            <Folder><Placemark><name>Café Ekberg</name><Point><coordinates>24.9384,60.1717</coordinates></Point></Placemark></Folder>
          </Folder>
        </Document>
      </kml>
      """)
    #expect(list.name == "Helsinki errands")
    #expect(list.rows.map(\.title) == ["K-Market Asema", "Café Ekberg"])
    #expect(list.rows[0].note == "Milk & <b>bread</b>")
    #expect(list.rows[0].coordinate == (try Coordinate(latitude: 60.1708, longitude: 24.9384)))
    #expect(list.rows[0].line == 7)
  }

  @Test func readsGPXWaypointsButNotTracks() throws {
    let list = try read(
      "walk.gpx",
      """
      <?xml version="1.0"?>
      <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
        <wpt lat="60.1708" lon="24.9384"><name>K-Market Asema</name><desc>milk</desc></wpt>
        <wpt lat="60.1717" lon="24.9384"><name>Café Ekberg</name></wpt>
        <trk><trkseg><trkpt lat="60.1" lon="24.9"><name>not a place</name></trkpt></trkseg></trk>
      </gpx>
      """)
    #expect(list.rows.map(\.title) == ["K-Market Asema", "Café Ekberg"])
    #expect(list.rows[0].note == "milk")
  }

  @Test func readsGeoJSONPoints() throws {
    let list = try read(
      "places.geojson",
      #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[24.9384,60.1708]},"properties":{"Name":"K-Market Asema","description":"milk"}},{"type":"Feature","geometry":{"type":"LineString","coordinates":[[24.9,60.1],[24.95,60.2]]},"properties":{"name":"a road"}}]}"#)
    #expect(list.rows.map(\.title) == ["K-Market Asema"])
    #expect(list.rows[0].note == "milk")
  }

  /// Each refusal names the file and, where there is one, the line.
  @Test(arguments: [
    ("bad.kml", "<kml><Document><Placemark><name>x</name>\n<Point><coordinates>24.9</coordinates></Point></Placemark></Document></kml>", "bad.kml:2: coordinates"),
    ("far.kml", "<kml><Placemark><name>x</name><Point><coordinates>200,95</coordinates></Point></Placemark></kml>", "within range"),
    ("cut.kml", "<kml><Document><Placemark><name>x</name>", "cut.kml:1: the file ends inside <Placemark>"),
    ("other.kml", "<svg><g/></svg>", "not a KML file"),
    ("bad.gpx", "<gpx>\n<wpt lat=\"99\" lon=\"24\"><name>x</name></wpt></gpx>", "bad.gpx:2: a waypoint needs lat and lon"),
    ("junk.gpx", "\u{0}\u{1}\u{2}binary", "XML"),
    ("map.kmz", "PK\u{3}\u{4}", "unzip"),
    ("bad.geojson", #"{"type":"FeatureCollection","features":[{"geometry":{"type":"Point","coordinates":[24.9]}}]}"#, "feature 0"),
    ("list.geojson", #"[1,2]"#, "not a GeoJSON FeatureCollection"),
  ])
  func refusesBrokenFiles(name: String, text: String, expected: String) {
    refuses(name, Data(text.utf8), expected)
  }

  func refuses(_ name: String, _ data: Data, _ expected: String) {
    let directory = TemporaryDirectory()
    let path = directory.file(name)
    #expect(FileManager.default.createFile(atPath: path, contents: data))
    do {
      _ = try TakeoutList.read(path)
      Issue.record("accepted \(name)")
    } catch {
      #expect("\(error)".contains(expected), "\(error)")
    }
  }

  /// Found by FuzzImport: Foundation's XMLParser dereferenced a null
  /// pointer on a processing instruction without data.
  @Test(arguments: [
    "<?xml?><gpx><wpt lat=\"60\" lon=\"24\"><name>x</name></wpt></gpx>",
    "<?xml version=\"1.0\"?><gpx><?php?><wpt lat=\"60\" lon=\"24\"><name>x</name></wpt></gpx>",
  ])
  func aProcessingInstructionIsRefusedNotACrash(text: String) {
    refuses("track.gpx", Data(text.utf8), "processing instruction")
  }

  @Test func theXMLDeclarationIsFine() throws {
    let list = try TakeoutList.parse(Data("\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?><gpx><wpt lat=\"60\" lon=\"24\"><name>x</name></wpt></gpx>".utf8), file: "t.gpx")
    #expect(list.rows.count == 1)
  }

  /// Found by FuzzImport: Foundation's XMLParser crashed on an element name
  /// holding a byte that is not UTF-8.
  @Test func aKMLThatIsNotUTF8IsRefusedNotACrash() {
    var kml = Data(#"<?xml version="1.0"?><kml><Document><Placemark><name>Shop</name><Point><coordi"#.utf8)
    kml.append(0xDB)
    kml.append(Data("nates>24.94,60.17,0</coordinates></Point></Placemark></Document></kml>".utf8))
    refuses("map.kml", kml, "not UTF-8")
  }

  /// Found by FuzzImport's ten-minute run: Linux's XMLParser goes on after
  /// an error, reporting every later one, and Foundation leaks an object
  /// per report (2 GiB in ten minutes). The first error stops the parse
  /// and is the one named, with its line.
  @Test func theFirstXMLErrorStopsTheParseAndIsNamed() throws {
    let kml = "<kml><Document>\n<Placemark><name>A & B</name></Placemark>\n" + String(repeating: "<x></y>\n", count: 50) + "</Document></kml>"
    let error = #expect(throws: ImportError.self) { try TakeoutList.parse(Data(kml.utf8), file: "bad.kml") }
    #expect(error?.line == 2, "\(String(describing: error))")
    #expect(error?.message.contains("not well-formed XML") == true)
  }
}

/// One rule for GeoJSON, KML and GPX: a malformed place refuses the file
/// (refusesBrokenFiles); an entry that is not a place is left out and said.
@Suite struct SkippedEntryTests {
  @Test func entriesThatAreNotPlacesAreCountedNotSilentlyDropped() throws {
    let geojson = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[24.94,60.17]},"properties":{"name":"Alepa"}},{"type":"Feature","geometry":{"type":"LineString","coordinates":[[24,60],[25,61]]},"properties":{"name":"Route"}},{"type":"Feature","geometry":{"type":"Point","coordinates":[24.95,60.16]},"properties":{}}]}"#
    let list = try TakeoutList.parse(Data(geojson.utf8), file: "mixed.geojson")
    #expect(list.rows.map(\.title) == ["Alepa"])
    #expect(list.skipped == ["feature 1: not a point", "feature 2: no name"])
    let kml = "<kml><Document><Placemark><name>Cottage</name><Point><coordinates>25.1,60.3</coordinates></Point></Placemark>\n<Placemark><name>Trail</name><LineString><coordinates>25,60 25.1,60.1</coordinates></LineString></Placemark></Document></kml>"
    let places = try TakeoutList.parse(Data(kml.utf8), file: "mixed.kml")
    #expect(places.rows.map(\.title) == ["Cottage"])
    #expect(places.skipped == ["line 2: not a point"])
  }
}

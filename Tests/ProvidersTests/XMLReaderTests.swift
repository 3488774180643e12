import Foundation
import Testing

@testable import Importing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The KML/GPX reader that replaced Foundation's XMLParser (which crashed on
/// fuzzed input and leaked per error): the same events on well-formed files,
/// and a line and a reason for everything it refuses.
@Suite struct XMLReaderTests {
  /// Start tags with sorted attributes, end tags, and the text between tags merged.
  static func events(_ text: String) throws(XMLReader.Failure) -> [String] {
    var reader = XMLReader(Array(text.utf8))
    var out = Events()
    while let event = try reader.next() {
      switch event {
      case .start(let name, let attributes): out.tag("<\(name)\(attributes.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined())>")
      case .end(let name): out.tag("</\(name)>")
      case .text(let text): out.pending += text
      }
    }
    return out.all
  }

  struct Events {
    var all: [String] = []
    var pending = ""
    mutating func tag(_ tag: String) {
      if !pending.isEmpty { all.append("text:" + pending) }
      pending = ""
      all.append(tag)
    }
  }

  /// The same, as Foundation's parser reports a well-formed document.
  final class Foundation: NSObject, XMLParserDelegate {
    var out = Events()
    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
      out.tag("<\(element)\(attributes.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined())>")
    }
    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) { out.tag("</\(element)>") }
    func parser(_ parser: XMLParser, foundCharacters string: String) { out.pending += string }
    func parser(_ parser: XMLParser, foundCDATA block: Data) { out.pending += String(decoding: block, as: UTF8.self) }

    static func events(_ text: String) -> [String]? {
      let parser = XMLParser(data: Data(text.utf8))
      let delegate = Foundation()
      parser.delegate = delegate
      return parser.parse() ? delegate.out.all : nil
    }
  }

  static let documents = [
    #"<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Trip &amp; more</name><Placemark><description><![CDATA[Milk & <b>bread</b>]]></description><Point><coordinates>24.9384,60.1708,0</coordinates></Point></Placemark></Document></kml>"#,
    "<gpx version='1.1' creator=\"a &quot;b&quot; &#x263A; &#233;\">\n  <wpt lat=\"60.1\" lon = '24.9'><name>Caf&#233; &lt;1&gt; &apos;x&apos;</name></wpt>\n  <!-- a comment with <tags> -->\n  <trk/>\n</gpx>\n",
    "\u{FEFF}<a:b xmlns:a=\"urn:x\"><a:c d=\"1\"/>text<e>\r\n</e><f g=\"x\r\ny\tz\ny\"><![CDATA[p\nq]]></f></a:b>",
  ]

  @Test(arguments: documents)
  func readsWhatFoundationReads(text: String) throws {
    let ours = try Self.events(text)
    #expect(ours == Foundation.events(text))
    #expect(!ours.isEmpty)
  }

  /// Real recorded GPX tracks from ../shared, when it is beside the checkout.
  @Test func readsRealGPXTracksAsFoundationDoes() throws {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/data/traces/raw")
    let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil))?.filter { $0.pathExtension == "gpx" } ?? []
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      let ours = try Self.events(text)
      #expect(ours == Foundation.events(text), "\(file.lastPathComponent)")
      #expect(ours.count > 100)
    }
  }

  @Test(arguments: [
    ("<a><b></a>", 1, "</a> where </b> was expected"),
    ("<a>\n\nx & y</a>", 3, "'&' that starts no entity"),
    ("<a>&bogus;</a>", 1, "the entity &bogus;"),
    ("<a>&#0;</a>", 1, "&#0; is not a character"),
    ("<!DOCTYPE a [<!ENTITY x \"xx\">]><a>&x;</a>", 1, "document type declaration"),
    ("<a b=c/>", 1, "not quoted"),
    ("<a b='1' b='2'/>", 1, "the attribute b twice"),
    ("<a b='<'/>", 1, "'<' inside an attribute value"),
    ("<a/><b/>", 1, "a second root element"),
    ("junk<a/>", 1, "text before the first element"),
    ("<a/>junk", 1, "text after the root element"),
    ("</a>", 1, "closes no open element"),
    ("<a><?php x?></a>", 1, "processing instruction"),
    ("<a>\n<!-- open", 2, "ends inside a comment"),
    ("<a><![CDATA[x", 1, "ends inside a CDATA section"),
    ("<a b='1", 1, "ends inside an attribute value"),
    ("<a\n", 2, "ends inside the tag <a"),
    ("<1a/>", 1, "cannot start with '1'"),
    ("<a>\u{0}</a>", 1, "control character 0x00"),
    ("\u{0}\u{0}\u{0}</Placemark>", 1, "control character 0x00"),
  ])
  func refusesWhatIsNotWellFormed(text: String, line: Int, reason: String) {
    do {
      _ = try Self.events(text)
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.line == line, "\(error)")
      #expect(error.message.contains(reason), "\(error)")
    }
  }

  /// Foundation's XMLParser crashed on this one (found by FuzzImport):
  /// stopping at the first error inside its first chunk freed the parser
  /// it then went on using.
  @Test func theInputThatCrashedFoundationIsAClearError() {
    let error = #expect(throws: ImportError.self) { try TakeoutList.parse(Data([0, 0, 0] + Array("</Placemark>".utf8)), file: "track.gpx") }
    #expect(error?.message.contains("not well-formed XML") == true, "\(String(describing: error))")
  }

  /// XML reads every line end as \n, in CDATA too (libxml2 keeps \r\n there).
  @Test func lineEndsInCDATAAreNewlines() throws {
    #expect(try Self.events("<a><![CDATA[p\r\nq\rr]]></a>") == ["<a>", "text:p\nq\nr", "</a>"])
  }

  @Test func anElementLeftOpenIsTheOneTheFileEndsInside() throws {
    var reader = XMLReader(Array("<kml><Document>\n<Placemark>".utf8))
    while try reader.next() != nil {}
    #expect(reader.unclosed == "Placemark")
    #expect(reader.line == 2)
  }
}

import Domain
import Foundation
import Geofencing
import OwnTracks
import Testing

/// Messages as the iOS and Android apps send them (PROTOCOLS.md), and the
/// commands both apps parse.
@Suite struct OwnTracksCodecTests {
  let now = Date(timeIntervalSince1970: 1_780_000_000)

  func decode(_ text: String) throws -> PhoneReport {
    try OwnTracksCodec.decode(Data(text.utf8), now: now)
  }

  @Test func readsAnIOSLocation() throws {
    let report = try decode(
      #"{"_type":"location","lat":60.1699,"lon":24.9384,"tst":1779999990,"acc":12,"alt":14,"vac":3,"batt":81,"bs":1,"tid":"al","t":"u","conn":"w","inregions":["Home"],"inrids":["abc"],"m":1,"SSID":"x","topic":"owntracks/alice/phone","created_at":1779999991}"#)
    guard case .location(let fix) = report else {
      Issue.record("not a location: \(report)")
      return
    }
    #expect(fix.coordinate == (try Coordinate(latitude: 60.1699, longitude: 24.9384)))
    #expect(fix.accuracy == 12)
    #expect(fix.at == Date(timeIntervalSince1970: 1_779_999_990))
    #expect(fix.battery == 81)
    #expect(fix.charging == false)
    #expect(fix.trigger == "u")
  }

  @Test func readsAnAndroidLocationWithFieldsLeftOut() throws {
    guard case .location(let fix) = try decode(#"{"_type":"location","lat":60.17,"lon":24.94,"tst":1779999990,"tid":"ph"}"#) else {
      Issue.record("not a location")
      return
    }
    #expect(fix.accuracy == nil)
    #expect(fix.battery == nil)
    #expect(fix.charging == nil)
  }

  @Test func readsTransitionsFromBothApps() throws {
    let ios = try decode(
      #"{"_type":"transition","wtst":1562499827,"lat":60.17,"lon":24.94,"tst":1779999990,"acc":10,"tid":"al","event":"enter","desc":"wh:t1:l1","rid":"wh:t1:l1","t":"c"}"#)
    guard case .transition(let entered) = ios else {
      Issue.record("not a transition")
      return
    }
    #expect(entered.entered && entered.regionID == "wh:t1:l1" && entered.stamp == 1_562_499_827 && entered.fix?.accuracy == 10)
    let android = try decode(#"{"_type":"transition","wtst":1562499827,"tst":1779999990,"event":"leave","desc":"wh:t1:l1","t":"l"}"#)
    guard case .transition(let left) = android else {
      Issue.record("not a transition")
      return
    }
    #expect(!left.entered && left.regionID == nil && left.stamp == 1_562_499_827 && left.fix == nil)
  }

  @Test func readsWaypointsLastWillAndTypesItIgnores() throws {
    #expect(try decode(#"{"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"Home","lat":1,"lon":2,"rad":50,"tst":1}]}"#) == .waypoints(count: 1))
    #expect(try decode(#"{"_type":"lwt","tst":1779999990}"#) == .lastWill(Date(timeIntervalSince1970: 1_779_999_990)))
    #expect(try decode(#"{"_type":"card","name":"Alice"}"#) == .ignored(type: "card"))
    #expect(try decode(#"{"_type":"status","iOS":{}}"#) == .ignored(type: "status"))
  }

  /// Each refusal names the message type and the field.
  @Test(arguments: [
    (#"[1,2]"#, "JSON object"),
    (#"not json"#, "not JSON"),
    (#"{"lat":1}"#, "_type"),
    (#"{"_type":"location","lon":24.9,"tst":1779999990}"#, "location.lat is missing"),
    (#"{"_type":"location","lat":"60.1","lon":24.9,"tst":1779999990}"#, "location.lat must be a number, not a string"),
    (#"{"_type":"location","lat":91,"lon":24.9,"tst":1779999990}"#, "location.lat is 91.0"),
    (#"{"_type":"location","lat":60,"lon":24.9,"tst":1779999990,"acc":-1}"#, "location.acc"),
    (#"{"_type":"location","lat":60,"lon":24.9}"#, "location.tst is missing"),
    (#"{"_type":"location","lat":60,"lon":24.9,"tst":99999999999}"#, "location.tst"),
    (#"{"_type":"location","lat":60,"lon":24.9,"tst":true}"#, "location.tst must be a number, not a boolean"),
    (#"{"_type":"transition","tst":1779999990,"event":"wander"}"#, "transition.event"),
    (#"{"_type":"waypoints","waypoints":{}}"#, "waypoints.waypoints must be an array"),
    (#"{"_type":"waypoint","lat":60,"lon":24.9,"rad":1e9,"tst":1}"#, "waypoint.rad is 1000000000.0"),
    (#"{"_type":"waypoint","lat":60,"lon":24.9,"rad":-5,"tst":1}"#, "waypoint.rad is -5.0"),
    (#"{"_type":"waypoint","lat":60,"lon":24.9,"rad":50,"tst":-1}"#, "waypoint.tst is -1.0"),
    (#"{"_type":"waypoints","waypoints":[{"lat":60,"lon":24.9,"rad":50},{"lat":60,"lon":24.9,"rad":-5}]}"#, "waypoints.waypoints[1]: waypoint.rad"),
    (#"{"_type":"waypoints","waypoints":[7]}"#, "waypoints.waypoints[0] must be an object"),
    (#"{"_type":"encrypted","data":"xx"}"#, "encrypted"),
  ])
  func refusesWithTheFieldNamed(text: String, expected: String) {
    do {
      _ = try decode(text)
      Issue.record("accepted \(text)")
    } catch {
      #expect("\(error)".contains(expected), "\(error)")
    }
  }

  @Test func refusesAnOversizeMessage() {
    let huge = Data(#"{"_type":"location","x":""#.utf8) + Data(repeating: 65, count: OwnTracksCodec.maxMessageBytes) + Data(#""}"#.utf8)
    #expect(throws: OwnTracksError.self) { try OwnTracksCodec.decode(huge, now: now) }
  }

  @Test func encodesCommandsBothAppsParse() throws {
    let region = PhoneRegion(id: "wh:t1:l1", name: "wh:t1:l1", center: try Coordinate(latitude: 60.1699, longitude: 24.9384), radius: 149.6, stamp: 1_562_499_827)
    let data = OwnTracksCodec.encode([.clearRegions, .setRegions([region]), .reportLocation])
    let messages = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    #expect(messages.map { $0["action"] as? String } == ["clearWaypoints", "setWaypoints", "reportLocation"])
    #expect(messages.allSatisfy { $0["_type"] as? String == "cmd" })
    let list = try #require((messages[1]["waypoints"] as? [String: Any]))
    #expect(list["_type"] as? String == "waypoints")
    let waypoint = try #require((list["waypoints"] as? [[String: Any]])?.first)
    #expect(waypoint["_type"] as? String == "waypoint")
    #expect(waypoint["rid"] as? String == "wh:t1:l1")
    #expect(waypoint["tst"] as? Int == 1_562_499_827)
    #expect(waypoint["rad"] as? Int == 150)
    #expect(waypoint["lat"] as? Double == 60.1699)
    #expect(String(decoding: OwnTracksCodec.encode([]), as: UTF8.self) == "[]")
  }

  @Test func encodesSetConfigurationWithTheIntervalUnderBothAppsKeys() throws {
    let data = OwnTracksCodec.encode([.setMonitoring(.move(interval: 5, displacement: 10)), .setMonitoring(PhoneMonitoring(mode: 1))])
    let messages = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    #expect(messages.map { $0["action"] as? String } == ["setConfiguration", "setConfiguration"])
    let move = try #require(messages[0]["configuration"] as? [String: Any])
    #expect(move["_type"] as? String == "configuration")
    #expect(move["monitoring"] as? Int == 2)
    #expect(move["locatorInterval"] as? Int == 5, "iOS")
    #expect(move["moveModeLocatorInterval"] as? Int == 5, "Android")
    #expect(move["locatorDisplacement"] as? Int == 10)
    let back = try #require(messages[1]["configuration"] as? [String: Any])
    #expect(back["monitoring"] as? Int == 1)
    #expect(back["locatorInterval"] == nil, "going back changes the mode only, not the person's own intervals")
  }

  @Test func readsTheAppsModeAndIgnoresOneItDoesNotKnow() throws {
    let tst = Int(now.timeIntervalSince1970)
    guard case .location(let fix) = try OwnTracksCodec.decode(Data(#"{"_type":"location","lat":60.1,"lon":24.9,"tst":\#(tst),"m":2}"#.utf8), now: now) else {
      Issue.record("not a location")
      return
    }
    #expect(fix.monitoring == 2)
    guard case .location(let odd) = try OwnTracksCodec.decode(Data(#"{"_type":"location","lat":60.1,"lon":24.9,"tst":\#(tst),"m":"move"}"#.utf8), now: now) else {
      Issue.record("a fix with an unknown mode must still be a fix")
      return
    }
    #expect(odd.monitoring == nil)
  }

  /// iOS's extended data carries CMMotionActivity's flags with each location.
  @Test(arguments: [
    (#"["stationary"]"#, true as Bool?), (#"["walking"]"#, false), (#"["stationary","automotive"]"#, true), (#"["automotive"]"#, false),
    (#"["cycling","stationary"]"#, false), (#"["running"]"#, false), (#"["unknown"]"#, nil), (#"[]"#, nil), (#""stationary""#, nil),
    (#"[1,2]"#, nil), (#"["stationary","stationary","stationary","stationary","stationary","stationary","stationary","stationary","stationary"]"#, nil),
  ])
  func readsWhetherThePhoneSaysItIsStationary(activities: String, stationary: Bool?) throws {
    let tst = Int(now.timeIntervalSince1970)
    let body = #"{"_type":"location","lat":60.1,"lon":24.9,"tst":\#(tst),"motionactivities":\#(activities)}"#
    guard case .location(let fix) = try OwnTracksCodec.decode(Data(body.utf8), now: now) else {
      Issue.record("a location with any motionactivities is still a location")
      return
    }
    #expect(fix.stationary == stationary, "\(activities)")
  }

  /// The apps' extended data names the Wi-Fi access point (Android
  /// `BSSID`, iOS `bssid`) or says the phone is on mobile data or offline.
  @Test(arguments: [
    (#""BSSID":"AA:BB:CC:00:11:22","conn":"w""#, PhoneNetwork.wifi("aa:bb:cc:00:11:22") as PhoneNetwork?),
    (#""bssid":"aa:bb:cc:00:11:22","conn":"w""#, .wifi("aa:bb:cc:00:11:22")), (#""conn":"m""#, .noWifi), (#""conn":"o""#, .noWifi),
    (#""conn":"w""#, nil), (#""BSSID":"","conn":"m""#, .noWifi), (#""BSSID":"a b""#, nil), (#""BSSID":7"#, nil),
    ("\"BSSID\":\"\(String(repeating: "a", count: 65))\"", nil), (#""conn":5"#, nil),
  ])
  func readsTheNetworkThePhoneIsOn(fields: String, network: PhoneNetwork?) throws {
    let tst = Int(now.timeIntervalSince1970)
    let body = #"{"_type":"location","lat":60.1,"lon":24.9,"tst":\#(tst),\#(fields)}"#
    guard case .location(let fix) = try OwnTracksCodec.decode(Data(body.utf8), now: now) else {
      Issue.record("a location with any network fields is still a location")
      return
    }
    #expect(fix.network == network, "\(fields)")
  }
}

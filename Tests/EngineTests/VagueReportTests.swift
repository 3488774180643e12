import Domain
import Engine
import Foundation
import Geofencing
import Testing
import TestSupport

/// A phone's own report inside a place but not beyond doubt (a Wi-Fi
/// position 65 m accurate, 60 m from the centre of a 100 m place: the
/// person may be 125 m away) is confirmed before it fires, while a session
/// can reach the phone and the allowance can pay; otherwise it is all
/// there is and fires at its word.
@Suite struct VagueReportTests {
  /// A task at a 100 m place 150 m north, the plan installed from 2 km
  /// away, then a Wi-Fi-grade report inside it: that report's reply.
  func vagueReport(_ p: PhoneServiceTests.Phone, remoteConfiguration: Bool) throws -> PhoneService.Reply {
    _ = try p.engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 150)), radius: 100)])
    _ = p.phone.receive(p.at(north: 2000), remoteConfiguration: remoteConfiguration)
    p.clock.advance(by: 120)
    return p.phone.receive(p.at(north: 210, accuracy: 65), remoteConfiguration: remoteConfiguration)
  }

  @Test func aVagueReportAsksAFixAndTheFixFires() throws {
    let p = PhoneServiceTests.Phone()
    let vague = try vagueReport(p, remoteConfiguration: true)
    #expect(vague.reminders.isEmpty, "\(vague.events)")
    #expect(vague.commands.contains(.reportLocation), "\(vague.commands)")
    p.clock.advance(by: 5)
    let fix = p.phone.receive(p.at(north: 160, accuracy: 8), remoteConfiguration: true)
    #expect(fix.reminders.map(\.title) == ["Buy milk"], "\(fix.events)")
    #expect(p.sink.notifications.count == 1)
  }

  @Test func aVagueReportFarFromTheTruthFiresNothing() throws {
    let p = PhoneServiceTests.Phone()
    _ = try vagueReport(p, remoteConfiguration: true)
    p.clock.advance(by: 5)
    // The fix asked for puts the person 400 m from the place: the Wi-Fi position was the OS's guess.
    let fix = p.phone.receive(p.at(north: 550, accuracy: 8), remoteConfiguration: true)
    #expect(fix.reminders.isEmpty && p.sink.notifications.isEmpty, "\(fix.events)")
  }

  @Test func aPhoneNoSessionReachesFiresOnTheReport() throws {
    let p = PhoneServiceTests.Phone()
    let vague = try vagueReport(p, remoteConfiguration: false)
    #expect(vague.reminders.map(\.title) == ["Buy milk"], "\(vague.events)")
  }

  @Test func withTheAllowanceSpentTheReportFires() throws {
    var config = ArrivalConfig()
    config.session.allowance = config.session.minimumSession - 1
    let p = PhoneServiceTests.Phone(config: config)
    let vague = try vagueReport(p, remoteConfiguration: true)
    #expect(vague.reminders.map(\.title) == ["Buy milk"], "\(vague.events)")
  }

  /// The last fix journalled before a restart is judged as its device's
  /// reports are: confirmed when a session reaches the device, at its word when not.
  @Test(arguments: [false, true]) func aRestoredVagueFixIsJudgedByItsDevice(remoteConfiguration: Bool) throws {
    let p = PhoneServiceTests.Phone()
    _ = try p.engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 150)), radius: 100)])
    p.clock.advance(by: 60)
    let fix = PhoneFix(coordinate: ArrivalHarness.point(north: 210), accuracy: 65, at: p.clock.now())
    let events = p.phone.restore(fix, remoteConfiguration: remoteConfiguration)
    let fired = events.contains { if case .reminder(.delivered) = $0 { true } else { false } }
    #expect(fired == !remoteConfiguration, "\(events)")
  }

  @Test func aReportBeyondDoubtFiresAtOnce() throws {
    let p = PhoneServiceTests.Phone()
    _ = try p.engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 150)), radius: 100)])
    _ = p.phone.receive(p.at(north: 2000), remoteConfiguration: true)
    p.clock.advance(by: 120)
    // 65 m accurate 20 m from the centre: the whole circle is inside.
    #expect(p.phone.receive(p.at(north: 170, accuracy: 65), remoteConfiguration: true).reminders.map(\.title) == ["Buy milk"])
  }

  @Test func offEveryReportThatFitsFires() throws {
    var config = ArrivalConfig()
    config.session.confirmVagueReports = false
    let p = PhoneServiceTests.Phone(config: config)
    let vague = try vagueReport(p, remoteConfiguration: true)
    #expect(vague.reminders.map(\.title) == ["Buy milk"], "\(vague.events)")
  }
}

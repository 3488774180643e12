import Domain
import Foundation
import Testing

@Suite struct OpeningHoursTests {
  static let helsinki = TimeZone(identifier: "Europe/Helsinki")!

  /// 2026-12-07 is a Monday; `day` 0 is Monday, 6 Sunday.
  static func at(day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = helsinki
    return calendar.date(from: DateComponents(year: 2026, month: 12, day: 7 + day, hour: hour, minute: minute))!
  }

  func open(_ text: String, day: Int, _ hour: Int, _ minute: Int = 0) throws -> Bool {
    try #require(OpeningHours(text)).isOpen(at: Self.at(day: day, hour, minute), in: Self.helsinki)
  }

  @Test func aSupermarketsWeek() throws {
    let hours = "Mo-Fr 09:00-21:00; Sa 09:00-19:00; Su 11:00-18:00"
    #expect(try open(hours, day: 0, 9) == true)
    #expect(try open(hours, day: 0, 8, 59) == false)
    #expect(try open(hours, day: 4, 20, 59) == true)
    #expect(try open(hours, day: 4, 21) == false, "the end is when it closes")
    #expect(try open(hours, day: 5, 19, 30) == false)
    #expect(try open(hours, day: 6, 10, 59) == false)
    #expect(try open(hours, day: 6, 11) == true)
  }

  @Test func theNextOpeningOrClosingIsFoundAcrossDaysAndSkipsSpansThatMeet() throws {
    let shop = try #require(OpeningHours("Mo-Fr 09:00-21:00; Sa 10:00-16:00; Su off"))
    #expect(shop.nextChange(after: Self.at(day: 0, 8), in: Self.helsinki) == Self.at(day: 0, 9))
    #expect(shop.nextChange(after: Self.at(day: 0, 9), in: Self.helsinki) == Self.at(day: 0, 21))
    // Friday night: closed over Saturday morning until 10.
    #expect(shop.nextChange(after: Self.at(day: 4, 22), in: Self.helsinki) == Self.at(day: 5, 10))
    // Saturday after closing: Sunday is off, so Monday 9.
    #expect(shop.nextChange(after: Self.at(day: 5, 17), in: Self.helsinki) == Self.at(day: 7, 9))
    // A bar open past midnight: 02:00, not the midnight where its spans meet.
    let bar = try #require(OpeningHours("Mo-Su 18:00-02:00"))
    #expect(bar.nextChange(after: Self.at(day: 2, 23), in: Self.helsinki) == Self.at(day: 3, 2))
    #expect(try #require(OpeningHours("24/7")).nextChange(after: Self.at(day: 0, 12), in: Self.helsinki) == nil)
    #expect(try #require(OpeningHours("closed")).nextChange(after: Self.at(day: 0, 12), in: Self.helsinki) == nil)
  }

  @Test func spansPastMidnightBelongToTheDayTheyStart() throws {
    let bar = "Mo-Su 21:00-04:00"
    #expect(try open(bar, day: 0, 23) == true)
    #expect(try open(bar, day: 1, 3, 59) == true, "Monday night runs into Tuesday")
    #expect(try open(bar, day: 1, 4) == false)
    #expect(try open(bar, day: 0, 2) == true, "Sunday night runs into Monday")
    #expect(try open(bar, day: 2, 12) == false)
  }

  @Test func everyCommonForm() throws {
    #expect(try open("24/7", day: 3, 3) == true)
    #expect(try open("closed", day: 3, 12) == false)
    #expect(try open("10:00-18:00", day: 6, 12) == true, "a rule without days is every day")
    #expect(try open("Mo-Fr 10:00-12:00,13:00-18:00", day: 2, 12, 30) == false, "a lunch break")
    #expect(try open("Mo-Fr 10:00-12:00,13:00-18:00", day: 2, 13) == true)
    #expect(try open("Mo,We 10:00-12:00", day: 2, 11) == true)
    #expect(try open("Mo,We 10:00-12:00", day: 1, 11) == false)
    #expect(try open("Mo-Th 10:30-21:00, Fr 10:30-22:00; Sa 11:00-22:00", day: 4, 21, 30) == true)
    #expect(try open("Mo-Th 10:30-21:00, Fr 10:30-22:00; Sa 11:00-22:00", day: 3, 21, 30) == false)
    #expect(try open("Mo-Sa 10:00-24:00", day: 5, 23, 59) == true)
    #expect(try open("Mo-Fr 9:00-18:00; Sa 10:00-16:00; PH off", day: 0, 9) == true, "holiday rules are left out")
    #expect(try open("Mo-Su 10:00-20:00; Su off", day: 6, 12) == false, "a later rule replaces the days it names")
    #expect(try open("Sa-Mo 10:00-14:00", day: 0, 12) == true, "a range across the week's end")
    #expect(try open("Mo-Fr 10:00-19:00, Sa,Su 10:00-18:00", day: 5, 18, 30) == false)
    #expect(try open("Mo-Fr 10:00-19:00, Sa,Su 10:00-18:00", day: 6, 10) == true)
  }

  @Test(arguments: ["", "sunrise-sunset", "Jan-Mar 10:00-12:00", "Mo-Fr", "Mo 25:00-26:00", "Mo 10-12", "by appointment", "Mo-Fr 08:00+"])
  func formsNotUnderstoodMeanNothingIsKnown(text: String) {
    #expect(OpeningHours(text) == nil)
  }
}

@testable import Exchange
import Foundation
import Testing

@Suite struct ICalendarStampTests {
  /// DateFormatter stands in as the reference here only; the product no longer uses it.
  static let reference: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    return formatter
  }()

  @Test(arguments: [0.0, 1_780_000_000, 951_782_400 /* 2000-02-29 */, 4_107_542_399 /* 2100-02-28T23:59:59 */, -86_401, 253_402_300_799 /* 9999-12-31 */])
  func writesAndReadsWhatDateFormatterWould(_ seconds: Double) throws {
    let date = Date(timeIntervalSince1970: seconds)
    let text = ICalendarStamp.string(date)
    #expect(text == Self.reference.string(from: date))
    #expect(ICalendarStamp.date(text) == date)
  }

  @Test(arguments: ["20261302T000000Z", "20260230T000000Z", "21000229T000000Z", "20261202T240000Z", "20261202T106000Z", "2026120T1000000Z", "20261202T100000", "20261202 100000Z", "２０２６1202T100000Z", ""])
  func refusesWhatIsNoUTCDateTime(_ text: String) {
    #expect(ICalendarStamp.date(text) == nil)
  }

  @Test func aLeapDayIsADay() {
    #expect(ICalendarStamp.date("20240229T120000Z") == Date(timeIntervalSince1970: 1_709_208_000))
  }
}

import Exchange
import Foundation

/// iCalendar from CalDAV clients and Apple Reminders: to-dos or an error, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICalendar(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  _ = try? ICalendar.decode(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
  return 0
}

import Foundation
import Locking
import Partitions

/// The shared suite every `CommandMailbox` passes: messages come back in
/// the order left, once, apart per person, and several writers' messages
/// all arrive.
public enum CommandMailboxConformance {
  public static func verify(make: () throws -> any CommandMailbox) throws {
    let box = try make()
    try expect(try box.collect(for: "alice").isEmpty, "empty", "a new mailbox held messages")
    try box.leave([Data("{\"a\":1}".utf8), Data("{\"a\":2}".utf8)], for: "alice")
    try box.leave([Data("{\"b\":1}".utf8)], for: "bob")
    try box.leave([Data("{\"a\":3}".utf8)], for: "alice")
    try box.leave([], for: "alice")
    let alice = try box.collect(for: "alice").map { String(decoding: $0, as: UTF8.self) }
    try expect(alice == ["{\"a\":1}", "{\"a\":2}", "{\"a\":3}"], "order", "\(alice)")
    try expect(try box.collect(for: "alice").isEmpty, "once", "collected messages came again")
    try expect(try box.collect(for: "bob").map { String(decoding: $0, as: UTF8.self) } == ["{\"b\":1}"], "apart", "bob's messages")
    // Four writers at once: every message arrives, each writer's in its order.
    let writers = 4
    let each = 25
    let group = DispatchGroup()
    let failures = Locked<[String]>([])
    for writer in 0..<writers {
      group.enter()
      Thread {
        defer { group.leave() }
        for index in 0..<each {
          do { try box.leave([Data("\(writer).\(index)".utf8)], for: "carol") } catch { failures.withLock { $0.append("\(error)") } }
        }
      }.start()
    }
    group.wait()
    try expect(failures.withLock { $0 }.isEmpty, "concurrent writers", "\(failures.withLock { $0 }.prefix(3))")
    let got = try box.collect(for: "carol").map { String(decoding: $0, as: UTF8.self) }
    try expect(got.count == writers * each, "concurrent writers", "\(got.count) of \(writers * each) arrived")
    for writer in 0..<writers {
      let mine = got.filter { $0.hasPrefix("\(writer).") }
      try expect(mine == (0..<each).map { "\(writer).\($0)" }, "concurrent writers", "writer \(writer)'s messages out of order")
    }
  }
}

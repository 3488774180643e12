import Domain
import Foundation
import Locking
import Notifications

/// The shared suite every `NotificationSink` passes. `make` builds a fresh
/// sink; `delivered` reads back what a person would see (the console's lines,
/// the requests a test server got), so the kit can check the title and both
/// buttons arrived.
public enum NotificationSinkConformance {
  public static func verify(
    make: () throws -> any NotificationSink, delivered: (any NotificationSink) throws -> String
  ) throws {
    let sink = try make()
    try expect(!sink.name.isEmpty, "name", "a sink needs a name for logs and doctor")
    let notification = sample(title: "Buy milk ü 🥛", body: "at Alepa (12 m)")
    let settled = Locked(0)
    try sink.deliver(notification) { settled.withLock { $0 += 1 } }
    let seen = try delivered(sink)
    // A durable outbox keeps a reminder until its sink says it is settled.
    try expect(settled.withLock { $0 } == 1, "settled", "settled \(settled.withLock { $0 }) times once delivered, not once")
    try expect(seen.contains("Buy milk ü 🥛"), "deliver", "the title did not arrive: \(seen)")
    for button in notification.category.buttons {
      try expect(seen.contains(button.title), "buttons", "'\(button.title)' did not arrive: \(seen)")
    }
    // Long and odd text must not break a sink.
    try sink.deliver(sample(title: String(repeating: "x", count: 10_000), body: "\"quoted\" \n newline \\ backslash"))
  }

  public static func sample(title: String, body: String) -> ReminderNotification {
    ReminderNotification(
      id: "t1:l1:1", task: TaskID("t1"), location: LocationID("l1"), title: title, body: body, category: .standard,
      firedAt: Fixtures.epoch)
  }
}

import Domain
import Foundation
import Notifications
import Testing
import TestSupport

final class FailingSink: NotificationSink {
  let name = "failing"
  func deliver(_ notification: ReminderNotification) throws { throw NotificationError(sink: name, reason: "offline") }
}

@Suite struct NotificationSinkTests {
  /// What a person would have seen of a recording sink's notifications: titles and buttons.
  static func seen(_ sink: RecordingNotificationSink) -> String {
    sink.notifications.map { n in ([n.title] + n.category.buttons.map(\.title)).joined(separator: " ") }.joined(separator: "\n")
  }

  @Test func recordingSinkPassesTheConformanceKit() throws {
    try NotificationSinkConformance.verify(
      make: { RecordingNotificationSink() },
      delivered: { sink in Self.seen(sink as! RecordingNotificationSink) })
  }

  @Test func multiplexPassesTheKitAndDeliversPastAFailingSink() throws {
    let inner = RecordingNotificationSink()
    try NotificationSinkConformance.verify(
      make: { MultiplexNotificationSink([inner]) },
      delivered: { _ in Self.seen(inner) })
    let recording = RecordingNotificationSink()
    let multiplex = MultiplexNotificationSink([FailingSink(), recording])
    let error = #expect(throws: NotificationError.self) {
      try multiplex.deliver(NotificationSinkConformance.sample(title: "T", body: "B"))
    }
    #expect(error?.reason.contains("offline") == true)
    #expect(recording.notifications.count == 1)
  }

  @Test func theSchedulerBuildsTheReminderWithItsButtons() {
    let recording = RecordingNotificationSink()
    let scheduler = NotificationScheduler(sink: recording, category: ReminderCategory(laterDuration: 7200))
    let outcome = scheduler.notify(
      task: Fixtures.task("t1"), location: LocationID("l1"), placeName: "Alepa", distance: 12.4, at: Fixtures.epoch, visit: 3)
    guard case .delivered(let notification) = outcome else {
      Issue.record("expected delivery, got \(outcome)")
      return
    }
    #expect(notification.body == "at Alepa (12 m)")
    #expect(notification.id == "t1:l1:3")
    #expect(notification.category.buttons.map(\.action) == [.markDone, .remindLater(7200)])
    #expect(recording.notifications == [notification])
  }

  @Test func deniedNotificationsAreSuppressedNotSent() {
    let recording = RecordingNotificationSink()
    let outcome = NotificationScheduler(sink: recording).notify(
      task: Fixtures.task("t1"), location: LocationID("l1"), placeName: nil, distance: 5, at: Fixtures.epoch, visit: 1,
      notificationsAllowed: false)
    guard case .suppressed = outcome else {
      Issue.record("expected suppression, got \(outcome)")
      return
    }
    #expect(recording.notifications.isEmpty)
  }

  @Test func aFailingSinkIsReportedNotThrown() {
    let outcome = NotificationScheduler(sink: FailingSink()).notify(
      task: Fixtures.task("t1"), location: LocationID("l1"), placeName: nil, distance: 5, at: Fixtures.epoch, visit: 1)
    guard case .failed(_, let error) = outcome else {
      Issue.record("expected failure, got \(outcome)")
      return
    }
    #expect(error.reason == "offline")
  }
}

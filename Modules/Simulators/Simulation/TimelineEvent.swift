import Domain
import Foundation

/// What happened during a scenario walk, in order, for printing or asserting.
public enum TimelineEvent: Sendable, Equatable {
  case started(name: String, places: Int, tasks: Int, seconds: Int)
  case paused(label: String, seconds: TimeInterval, at: Date)
  /// A new coverage plan: the places watched now (task — place), and why.
  case plan(at: Date, watching: [String], regions: Int, reason: String)
  case session(at: Date, text: String)
  /// A reminder with its buttons.
  case reminder(at: Date, task: String, body: String, buttons: [String])
  case answered(task: String, answer: String, at: Date)
  case finished(at: Date, tasks: [TaskOutcome])

  public struct TaskOutcome: Sendable, Equatable {
    public let title: String
    public let state: String
  }
}

import Domain
import Engine
import Foundation

/// What happened during a scenario run, in order, for printing or asserting.
public enum TimelineEvent: Sendable, Equatable {
  case started(name: String, places: Int, tasks: Int, fixes: Int)
  case paused(label: String, seconds: TimeInterval, at: Date)
  /// A reminder fired; it offers Mark Done and Remind Later.
  case reminder(FixArrivalService.Arrival)
  case answered(task: String, answer: String, at: Date)
  case finished(at: Date, tasks: [(title: String, state: String)])

  public static func == (a: Self, b: Self) -> Bool {
    switch (a, b) {
    case let (.started(n1, p1, t1, f1), .started(n2, p2, t2, f2)): return n1 == n2 && p1 == p2 && t1 == t2 && f1 == f2
    case let (.paused(l1, s1, a1), .paused(l2, s2, a2)): return l1 == l2 && s1 == s2 && a1 == a2
    case let (.reminder(x), .reminder(y)): return x == y
    case let (.answered(t1, a1, d1), .answered(t2, a2, d2)): return t1 == t2 && a1 == a2 && d1 == d2
    case let (.finished(d1, t1), .finished(d2, t2)):
      return d1 == d2 && t1.map { $0.title + $0.state } == t2.map { $0.title + $0.state }
    default: return false
    }
  }
}

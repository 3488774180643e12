import Domain
import Foundation
import NATSStore
import Persistence

/// Opening a person's `nats:` log as a worker taking them over does: a log
/// of `messages` single writes (a journalled fix each, about what a phone
/// sends in a day at one fix every 15 s) read from its first message,
/// against the same writes with a snapshot every 1,000 messages, in the
/// same run on the same servers. Each log is new (a fresh name per run).
enum NATSOpenBenchmark {
  static func run(servers: String, messages: Int) throws {
    let run = UUID().uuidString.prefix(8)
    print("workload: \(messages) single writes to one nats: log (a task updated each time), opened cold; servers \(servers)")
    var report = Report()
    for (label, every) in [("whole log", Int.max), ("snapshot every 1000", 1000)] {
      let location = try NATSLocation("\(servers);stream=BENCH;log=open-\(run)-\(every == Int.max ? "log" : "snap")")
      let store = try NATSOperationStore(location, compactEvery: every)
      var task = try ReminderTask(id: TaskID("t1"), title: "Buy milk", locations: [], createdAt: Date())
      let written = measure {
        for index in 0..<messages {
          task.title = "Buy milk \(index)"
          _ = try! store.append([.put(.task(task))])
        }
      }
      store.close()
      report.add("nats: \(messages) single writes (\(label))", Double(messages) / written, "writes/s", String(format: "%.2f s", written))
      let open = measureBest(3) { try! NATSOperationStore(location, compactEvery: every).close() }
      let reopened = try NATSOperationStore(location)
      guard reopened.state().tasks[TaskID("t1")]?.title == "Buy milk \(messages - 1)" else {
        print("error: the reopened log does not end with the last write")
        exit(1)
      }
      reopened.close()
      report.add("nats: cold open (\(label))", open, "s", "")
    }
    report.print()
  }
}

import Domain
import FileStore
import Foundation
import Persistence
import Testing
import TestSupport

/// `task list` of thousands of tasks, whose lines are written in parts on
/// several threads, prints every task once, oldest first, as the JSON
/// listing orders them.
@Suite struct LongTaskListCLITests {
  @Test(arguments: [false, true]) func thousandsOfTasksListOnceEachOldestFirst(compacted: Bool) throws {
    let cli = CLIHarness()
    let count = 5_000
    do {
      let store = try FileOperationStore(directory: cli.storeDirectory, clock: ManualClock(Date()), options: FileStoreOptions(access: .shared))
      defer { store.close() }
      // Created newest id first, and two at each instant, so the order is the times' and then the ids'.
      try store.append(
        (0..<count).map { number in
          .put(.task(try! ReminderTask(
            id: TaskID(String(format: "t%05d", number)), title: "Errand \(number)",
            locations: [TaskLocation(id: LocationID("l1"), target: .coordinate(Fixtures.helsinki), radius: 150)],
            createdAt: Fixtures.epoch.addingTimeInterval(Double((count - number) / 2)))))
        })
      if compacted { try store.compact() }
    }
    let listed = cli.run("task", "list")
    #expect(listed.code == 0, "\(listed.stderr)")
    let headings = listed.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
    let ids = headings.map { $0.split(separator: " ", omittingEmptySubsequences: true)[2] }.map(String.init)
    let expected = (0..<count).sorted { a, b in (count - a) / 2 != (count - b) / 2 ? (count - a) / 2 < (count - b) / 2 : a < b }.map { String(format: "t%05d", $0) }
    // Compared by the first difference: thousands of ids make an unreadable message.
    let differs = (0..<max(ids.count, expected.count)).first { ids.indices.contains($0) != expected.indices.contains($0) || ids[$0] != expected[$0] }
    #expect(differs == nil, "listed \(ids.count) tasks; the first out of place at \(differs.map(String.init) ?? "-")")
    #expect(listed.stdout.split(separator: "\n").count == 2 * count, "a heading and one location line each")
    let json = try #require(try cli.json("task", "list") as? [[String: Any]])
    #expect(json.compactMap { $0["id"] as? String }.elementsEqual(expected), "the JSON listing's order")
  }
}

import Foundation
import Geofencing
import Testing

@Suite struct TrackingBudgetTests {
  let config = SessionConfig()
  let start = Date(timeIntervalSince1970: 1_000_000)

  @Test func reservesUpToWhatIsLeftAndRefusesWhenSpent() throws {
    var budget = TrackingBudget()
    var now = start
    var total: TimeInterval = 0
    for _ in 0..<3 {
      let ticket = try budget.reserve(600, at: now, config: config)
      budget.settle(ticket.id, used: ticket.granted)
      total += ticket.granted
      now.addTimeInterval(120)
    }
    #expect(total == 1800)
    #expect(budget.available(at: now, config: config) == 0)
    #expect(throws: TrackingBudget.Refusal.self) { try budget.reserve(600, at: now, config: config) }
    // A day after the first session its time comes back.
    let later = start.addingTimeInterval(86_400 + 1)
    #expect(budget.available(at: later, config: config) == 600)
    let granted = try budget.reserve(600, at: later, config: config).granted
    #expect(granted == 600)
  }

  @Test func settlingChargesOnlyWhatWasUsed() throws {
    var budget = TrackingBudget()
    let ticket = try budget.reserve(600, at: start, config: config)
    #expect(budget.available(at: start, config: config) == 1200)
    budget.settle(ticket.id, used: 45)
    #expect(budget.available(at: start, config: config) == 1755)
    budget.settle(ticket.id, used: 500)
    #expect(budget.available(at: start, config: config) == 1755, "settling twice changes nothing")
  }

  @Test func rapidRestartsAreRefused() throws {
    var budget = TrackingBudget()
    let ticket = try budget.reserve(600, at: start, config: config)
    budget.settle(ticket.id, used: 5)
    let error = #expect(throws: TrackingBudget.Refusal.self) { try budget.reserve(600, at: start.addingTimeInterval(10), config: config) }
    #expect(error == .tooSoon(retryAfter: 50))
  }

  @Test func anInterruptedSessionKeepsItsFullReservation() throws {
    var budget = TrackingBudget()
    _ = try budget.reserve(600, at: start, config: config)
    // The app dies; on relaunch the open reservation is kept as spent.
    let data = try JSONEncoder().encode(budget)
    var relaunched = try JSONDecoder().decode(TrackingBudget.self, from: data)
    #expect(relaunched.hasOpenSession)
    relaunched.closeInterrupted()
    #expect(!relaunched.hasOpenSession)
    #expect(relaunched.available(at: start.addingTimeInterval(100), config: config) == 1200)
  }
}

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

@Suite struct TrackingBudgetFixTests {
  let config = SessionConfig()
  let start = Date(timeIntervalSince1970: 1_000_000)

  @Test func aWakeUpFixIsChargedButDoesNotHoldBackASession() throws {
    var budget = TrackingBudget()
    let charged1 = budget.chargeFix(5, at: start, config: config)
    #expect(charged1)
    #expect(budget.available(at: start, config: config) == 1795)
    // The sessions' restart cooldown reads only sessions.
    let ticket = try budget.reserve(600, at: start.addingTimeInterval(1), config: config)
    #expect(ticket.granted == 600)
    budget.settle(ticket.id, used: 100)
    let charged2 = budget.chargeFix(5, at: start.addingTimeInterval(2), config: config)
    #expect(charged2)
    #expect(throws: TrackingBudget.Refusal.tooSoon(retryAfter: 58)) { try budget.reserve(600, at: start.addingTimeInterval(3), config: config) }
  }

  @Test func aWakeUpFixTheAllowanceCannotHoldIsRefused() throws {
    var small = config
    small.allowance = 8
    var budget = TrackingBudget()
    let charged3 = budget.chargeFix(5, at: start, config: small)
    #expect(charged3)
    let charged4 = budget.chargeFix(5, at: start, config: small)
    #expect(!charged4)
    #expect(budget.available(at: start, config: small) == 3)
    // A day later the charge has rolled off.
    let charged5 = budget.chargeFix(5, at: start.addingTimeInterval(86_401), config: small)
    #expect(charged5)
  }
}

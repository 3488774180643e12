import Domain
import Engine
import Foundation
import Geofencing

extension PersonAPI {
  /// `/api/v1/status`: the phone as the map page and scripts see it.
  struct StatusView: Encodable {
    let person: String
    let regionsWatched: Int
    let capacity: Int
    let preciseSecondsUsed: Double
    /// The rolling day's allowance, and how it was spent: sessions and single fixes.
    let preciseSecondsAllowed: Double
    let sessions: Int
    let singleFixes: Int
    let deliveries: [String: Int]
    let lastDeliveryError: String?
    /// The last position the phone reported (the map page centres on it).
    let lastFix: Person.SavedFix?
    /// Each device's last report, by name, when more than one reported.
    let devices: [Person.SavedFix]
    /// The daemon's time (epoch seconds), for ages on a page whose clock may differ.
    let serverTime: Double
    /// What `doctor` would point out about this phone, in words.
    let notes: [String]

    init(person: Person, now: Date) {
      serverTime = now.timeIntervalSince1970
      lastFix = person.journal.state().settings[person.lastFixKey].flatMap { try? JSONDecoder().decodeOutside(Person.SavedFix.self, from: Data($0.utf8)) }
      let seen = person.devices
      devices = seen.count > 1 ? seen.keys.sorted().compactMap { seen[$0] } : []
      self.person = person.name
      regionsWatched = person.phone.monitor.monitoredRegions().count
      capacity = person.phone.monitor.capacity
      let budget = person.phone.arrival.currentBudget
      let clockNow = person.engine.context.clock.now()
      preciseSecondsUsed = budget.spent(at: clockNow, config: person.sessionConfig)
      preciseSecondsAllowed = person.sessionConfig.allowance
      let today = budget.charges.filter { $0.start > clockNow.addingTimeInterval(-person.sessionConfig.window) }
      sessions = today.filter { $0.fix != true }.count
      singleFixes = today.filter { $0.fix == true }.count
      let statuses = person.queues.map(\.status)
      // Kept until their sink settles them, also across a restart (ReminderOutbox).
      let waiting = person.store.state().settings.keys.filter { $0.hasPrefix(ReminderOutbox.keyPrefix) }.count
      deliveries = [
        "delivered": statuses.map(\.delivered).reduce(0, +), "retrying": statuses.map(\.retrying).reduce(0, +),
        "failed": statuses.map(\.failed).reduce(0, +), "waiting": waiting,
      ]
      lastDeliveryError = statuses.compactMap(\.lastError).last
      var notes: [String] = []
      if let fix = lastFix {
        let age = now.timeIntervalSince1970 - fix.at
        if age > 3600 {
          notes.append("No report for \(Int(age / 3600)) h: is OwnTracks running, and allowed to use location always?")
        }
      } else {
        notes.append("The phone has not reported yet: point OwnTracks at this server (Docs/Daemon.md, 'Pointing the OwnTracks app at it').")
      }
      // Reminders that reach no one but the daemon's log look delivered; say where they go.
      if !person.remindersReachPerson {
        notes.append(
          (person.sinkKinds.isEmpty ? "Reminders go nowhere but this page" : "Reminders go only to this page and the daemon's \(person.sinkKinds.joined(separator: " and ")) output")
            + ": to get them on your phone, add an ntfy or webhook sink to people.\(person.name).notify (Docs/Daemon.md).")
      }
      if waiting > 0 {
        notes.append("\(waiting) reminder\(waiting == 1 ? " is" : "s are") waiting for a receiver that has not taken \(waiting == 1 ? "it" : "them") yet: kept and sent again after a restart for an hour.")
      }
      if let failed = deliveries["failed"], failed > 0 {
        notes.append("\(failed) reminder\(failed == 1 ? "" : "s") could not be delivered" + (lastDeliveryError.map { ": \($0)" } ?? "."))
      }
      if let battery = lastFix?.battery, lastFix?.charging != true, Double(battery) < person.sessionConfig.lowBattery * 100 {
        notes.append("The battery was at \(battery) %: below \(Int(person.sessionConfig.lowBattery * 100)) % precise-location sessions are shorter and followed positions stop.")
      }
      if regionsWatched >= capacity, capacity > 0 {
        notes.append("The phone watches as many regions as it can (\(capacity)); the nearest places are covered first.")
      }
      self.notes = notes
    }
  }
}

import Foundation
import Geofencing

/// Reports from devices on this machine (gpsd, a replayed file) for one
/// person: the same path as a phone's, with nothing to answer.
final class LocalIngest: Sendable {
  let source: any LocationSource
  let person: Person
  let log: DaemonLog

  init(source: any LocationSource, person: Person, log: DaemonLog) {
    self.source = source
    self.person = person
    self.log = log
  }

  func start() throws {
    let person = person
    let log = log
    let name = source.name
    try source.start { report in
      person.transport = .local
      do {
        let reply = try person.receive(report)
        for notification in reply.reminders {
          log("fired", ["person": person.name, "task": notification.task.rawValue, "title": notification.title, "via": name])
        }
      } catch {
        log("store-failed", ["person": person.name, "error": "\(error)"])
      }
    }
    log("source", ["name": name, "person": person.name])
  }

  func stop() { source.stop() }
}

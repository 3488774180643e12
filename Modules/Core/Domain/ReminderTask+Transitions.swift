import Foundation

/// The task state machine: active ⇄ snoozed, active/snoozed → completed,
/// completed → active (reopen). Anything else is refused with the reason.
extension ReminderTask {
  public mutating func complete(at now: Date) throws(DomainError) {
    if case .completed = state {
      throw .invalidTransition("task '\(title)' is already done")
    }
    state = .completed(at: now)
  }

  public mutating func snooze(until: Date, now: Date) throws(DomainError) {
    if case .completed = state {
      throw .invalidTransition("task '\(title)' is done; reopen it before snoozing")
    }
    guard until > now else {
      throw .invalidValue(field: "snooze", value: "\(until)", allowed: "a time in the future")
    }
    state = .snoozed(until: until)
  }

  /// Ends a snooze now: the task counts again at once.
  public mutating func wake(now: Date) throws(DomainError) {
    guard case .snoozed(let until) = state, until > now else {
      throw .invalidTransition("task '\(title)' is not snoozed, so there is nothing to wake")
    }
    state = .active
  }

  public mutating func reopen() throws(DomainError) {
    guard case .completed = state else {
      throw .invalidTransition("task '\(title)' is not done, so there is nothing to reopen")
    }
    state = .active
  }

  /// Moves a location to a new priority position (0 = first).
  public mutating func moveLocation(_ id: LocationID, toPriority index: Int) throws(DomainError) {
    guard let from = locations.firstIndex(where: { $0.id == id }) else {
      throw .notFound(kind: "location", reference: id.rawValue)
    }
    guard (0..<locations.count).contains(index) else {
      throw .invalidValue(
        field: "priority", value: String(index + 1), allowed: "1...\(locations.count)")
    }
    let item = locations.remove(at: from)
    locations.insert(item, at: index)
  }

  public mutating func updateLocation(
    _ id: LocationID, _ change: (inout TaskLocation) throws(DomainError) -> Void
  ) throws(DomainError) {
    guard let index = locations.firstIndex(where: { $0.id == id }) else {
      throw .notFound(kind: "location", reference: id.rawValue)
    }
    try change(&locations[index])
  }
}

import Foundation

/// The rolling allowance of precise tracking (30 minutes per 24 hours by
/// default). Time is reserved before a session starts and settled with what
/// was used when it stops; a reservation never settled (the app crashed)
/// stays charged in full. Codable so the engine can persist it in the store
/// and it survives relaunch.
public struct TrackingBudget: Hashable, Sendable, Codable {
  public struct Charge: Hashable, Sendable, Codable {
    public let id: Int
    public let start: Date
    public let reserved: TimeInterval
    /// Nil while the session runs, or forever if it was interrupted.
    public var used: TimeInterval?
    /// A single wake-up fix rather than a session: the restart cooldown ignores it.
    public var fix: Bool?

    var cost: TimeInterval { used ?? reserved }
  }

  public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
    case tooSoon(retryAfter: TimeInterval)
    case exhausted(available: TimeInterval, refillsAt: Date?)

    public var description: String {
      switch self {
      case .tooSoon(let wait): return "a session started less than the cooldown ago; retry in \(Int(wait.rounded(.up))) s"
      case .exhausted(let available, _): return "tracking budget exhausted (\(Int(available)) s left)"
      }
    }
  }

  public private(set) var charges: [Charge] = []
  private var nextID = 1

  public init() {}

  public func spent(at now: Date, config: SessionConfig) -> TimeInterval {
    charges.filter { $0.start > now.addingTimeInterval(-config.window) }.reduce(0) { $0 + $1.cost }
  }

  public func available(at now: Date, config: SessionConfig) -> TimeInterval {
    max(0, config.allowance - spent(at: now, config: config))
  }

  /// Reserves up to `wanted` seconds, or refuses: too soon after the last
  /// start, or less than a minimum session left.
  public mutating func reserve(_ wanted: TimeInterval, at now: Date, config: SessionConfig) throws(Refusal) -> (id: Int, granted: TimeInterval) {
    prune(at: now, config: config)
    if let last = charges.last(where: { $0.fix != true }), now.timeIntervalSince(last.start) < config.restartCooldown {
      throw .tooSoon(retryAfter: config.restartCooldown - now.timeIntervalSince(last.start))
    }
    let left = available(at: now, config: config)
    guard left >= config.minimumSession else {
      let refill = charges.first.map { $0.start.addingTimeInterval(config.window) }
      throw .exhausted(available: left, refillsAt: refill)
    }
    let granted = min(wanted, left)
    let id = nextID
    nextID += 1
    charges.append(Charge(id: id, start: now, reserved: granted, used: nil))
    return (id, granted)
  }

  /// Charges one single fix of `seconds` if the allowance still holds it:
  /// a wake-up fix is GPS time like any other, so it comes out of the same
  /// budget (without the sessions' restart cooldown).
  public mutating func chargeFix(_ seconds: TimeInterval, at now: Date, config: SessionConfig) -> Bool {
    prune(at: now, config: config)
    guard available(at: now, config: config) >= seconds else { return false }
    charges.append(Charge(id: nextID, start: now, reserved: seconds, used: seconds, fix: true))
    nextID += 1
    return true
  }

  /// Records what a session used (never more than it reserved).
  public mutating func settle(_ id: Int, used: TimeInterval) {
    guard let index = charges.firstIndex(where: { $0.id == id }), charges[index].used == nil else { return }
    charges[index].used = max(0, min(used, charges[index].reserved))
  }

  /// After a relaunch: sessions left open were interrupted; they keep their
  /// full reservation as the charge.
  public mutating func closeInterrupted() {
    for index in charges.indices where charges[index].used == nil {
      charges[index].used = charges[index].reserved
    }
  }

  public var hasOpenSession: Bool { charges.contains { $0.used == nil } }

  private mutating func prune(at now: Date, config: SessionConfig) {
    // Keep the last session's charge even when old: the cooldown reads it.
    let cutoff = now.addingTimeInterval(-config.window)
    let lastSession = charges.lastIndex { $0.fix != true }
    let keep = charges.indices.filter { charges[$0].start > cutoff || $0 == lastSession }
    charges = keep.map { charges[$0] }
  }
}

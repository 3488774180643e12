import Engine

extension StrategyRun {
  /// Counts one engine event of a run: replans, fires (the place from the
  /// benchmark's location ids, `l<place>`), and what sessions and fixes did.
  public mutating func count(_ event: ArrivalEvent, at second: Int) {
    switch event {
    case .planned: replans += 1
    case .reminder(.delivered(let notification)), .reminder(.suppressed(let notification, _)):
      if let place = Int(notification.location.rawValue.dropFirst()) { fires.append((second, place)) }
    case .sessionStarted: notes["session started", default: 0] += 1
    case .sessionStopped(let reason, _): notes["session stopped: \(reason.rawValue)", default: 0] += 1
    case .sessionRefused(let reason): notes["session refused: \(reason.prefix(40))", default: 0] += 1
    case .wakeFixRequested: notes["wake fix", default: 0] += 1
    case .confirmationRequested(let id):
      // Region entries are counted together; the other sources by name.
      let source = [ArrivalService.followID, ArrivalService.visitID, ArrivalService.stopID, ArrivalService.silenceID, ArrivalService.reportID].contains(id) ? " (\(id))" : ""
      notes["confirming fix" + source, default: 0] += 1
    case .installFailed: notes["install failed", default: 0] += 1
    default: break
    }
  }
}

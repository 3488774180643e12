import Locking

/// A region monitor with the OS's capacity rule and nothing else: it records
/// every call, for tests of the engine. The simulator's monitor adds the
/// OS's timing and crossing behaviour.
public final class RecordingRegionMonitor: RegionMonitor {
  public enum Call: Equatable, Sendable {
    case start(String), stop(String), requestState(String)
    /// A start with a declared state (only when `declaresInitialState`).
    case startAssuming(String, inside: Bool)
  }

  public let capacity: Int
  public let declaresInitialState: Bool
  private let state = Locked<(regions: [String: PlannedRegion], calls: [Call], available: Bool)>(([:], [], true))

  public init(capacity: Int = 20, declaresInitialState: Bool = false) {
    self.capacity = capacity
    self.declaresInitialState = declaresInitialState
  }

  public var calls: [Call] { state.withLock { $0.calls } }
  public var regions: [String: PlannedRegion] { state.withLock { $0.regions } }

  /// Turns monitoring off, as approximate location does.
  public func setAvailable(_ available: Bool) { state.withLock { $0.available = available } }

  public func monitoredRegions() -> Set<String> { state.withLock { Set($0.regions.keys) } }

  public func startMonitoring(_ region: PlannedRegion) throws {
    try start(region, call: .start(region.id))
  }

  public func startMonitoring(_ region: PlannedRegion, assumingInside: Bool) throws {
    try start(region, call: declaresInitialState ? .startAssuming(region.id, inside: assumingInside) : .start(region.id))
  }

  private func start(_ region: PlannedRegion, call: Call) throws {
    try state.withLock { state in
      guard state.available else { throw RegionMonitorError.unavailable("approximate location") }
      guard state.regions[region.id] != nil || state.regions.count < capacity else {
        throw RegionMonitorError.overCapacity(capacity: capacity)
      }
      state.regions[region.id] = region
      state.calls.append(call)
    }
  }

  public func stopMonitoring(_ id: String) {
    state.withLock { state in
      state.regions[id] = nil
      state.calls.append(.stop(id))
    }
  }

  public func requestState(_ id: String) { state.withLock { $0.calls.append(.requestState(id)) } }
}

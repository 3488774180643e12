/// The OS region monitor (iOS CLLocationManager / CLMonitor, or a phone via
/// OwnTracks waypoints).
///
/// Contract (checked by `RegionMonitorConformance` in TestSupport):
/// - `startMonitoring` adds a region or throws `RegionMonitorError`:
///   `.overCapacity` when `capacity` regions are already monitored (the
///   region is then not added), `.unavailable` when monitoring is off
///   (approximate location); starting an id already monitored replaces it;
/// - `stopMonitoring` of an unknown id is not an error;
/// - `monitoredRegions()` is exactly what was started and not stopped;
/// - registering a region while inside it produces no entry: call
///   `requestState`, whose answer arrives later as a `RegionEvent`;
/// - a monitor that `declaresInitialState` (iOS 17's CLMonitor,
///   `add(_:identifier:assuming:)`) takes a region started with
///   `startMonitoring(_:assumingInside:)` to be in the state declared, and
///   reports the state the OS finds later as `.inside`/`.outside` only when
///   it differs: no `requestState` is needed after registering.
/// Events are delivered by whoever drives the engine (simulator, daemon).
public protocol RegionMonitor: AnyObject, Sendable {
  /// How many regions the OS lets this app monitor at once.
  var capacity: Int { get }
  /// Whether regions can be started with a declared state (see above).
  var declaresInitialState: Bool { get }
  /// The ids monitored now.
  func monitoredRegions() -> Set<String>
  /// Begins monitoring a region.
  func startMonitoring(_ region: PlannedRegion) throws
  /// Begins monitoring a region taken to be in the state declared; a
  /// monitor that cannot declare one starts it as `startMonitoring` does.
  func startMonitoring(_ region: PlannedRegion, assumingInside: Bool) throws
  /// Stops monitoring a region.
  func stopMonitoring(_ id: String)
  /// Asks whether the device is inside; answered by a later `.inside`/`.outside` event.
  func requestState(_ id: String)
}

extension RegionMonitor {
  public var declaresInitialState: Bool { false }

  public func startMonitoring(_ region: PlannedRegion, assumingInside: Bool) throws {
    try startMonitoring(region)
  }
}

public enum RegionMonitorError: Error, Equatable, Sendable, CustomStringConvertible {
  case overCapacity(capacity: Int)
  case unavailable(String)

  public var description: String {
    switch self {
    case .overCapacity(let capacity): return "region monitoring is full (\(capacity) regions)"
    case .unavailable(let reason): return "region monitoring is unavailable: \(reason)"
    }
  }
}

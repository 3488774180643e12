/// A device that reports where it is on its own: a GPS through gpsd, a
/// replayed file, a script on standard input.
///
/// Contract: after `start`, each report is handed to `deliver` in the
/// order the device produced it, on the source's own thread; a source that
/// loses its device keeps trying to get it back until `stop`, which is
/// idempotent and returns once nothing more will be delivered.
public protocol LocationSource: AnyObject, Sendable {
  /// For logs: `gpsd:HOST:PORT`, `replay:PATH`.
  var name: String { get }
  func start(_ deliver: @escaping @Sendable (PhoneReport) -> Void) throws
  func stop()
}

import Domain

/// What a location source on this machine is made from: where to reach
/// it, the clock its fixes are stamped by when they carry no time, and
/// where it says what went wrong.
public struct LocalSourceInput: Sendable {
  public let host: String
  public let port: Int
  public let clock: any WallClock
  public let log: @Sendable (String) -> Void

  public init(host: String, port: Int, clock: any WallClock, log: @escaping @Sendable (String) -> Void) {
    self.host = host
    self.port = port
    self.clock = clock
    self.log = log
  }
}

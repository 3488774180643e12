import Domain
import Foundation
import Geofencing
import Locking

/// JSON lines from a file or standard input, for scripting: each line an
/// OwnTracks message (`{"_type":"location",…}`) or a trace fix
/// (`{"t": ISO-8601, "lat", "lon", "acc"}`, the format of
/// ../shared/data/traces). A bad line is reported with its number and
/// skipped. `restamp` shifts the trace in time so its first fix is taken
/// now, keeping the time between fixes (how far the device could have
/// moved in between is what tells an outlier), so an old trace still
/// counts as happening now.
public final class ReplaySource: LocationSource, Sendable {
  public let path: String
  public var name: String { "replay:\(path)" }
  let restamp: Bool
  let clock: any WallClock
  let log: @Sendable (String) -> Void
  private let done = DispatchSemaphore(value: 0)
  private let state = Locked(Progress())

  private struct Progress {
    var stopped = false
    var started = false
    /// With `restamp`: what is added to every fix's time (set by the first).
    var shift: TimeInterval?
  }

  /// `path` "-" reads standard input.
  public init(path: String, restamp: Bool, clock: any WallClock, log: @escaping @Sendable (String) -> Void = { _ in }) {
    self.path = path
    self.restamp = restamp
    self.clock = clock
    self.log = log
  }

  public func start(_ deliver: @escaping @Sendable (PhoneReport) -> Void) throws {
    let handle: FileHandle
    if path == "-" {
      handle = FileHandle.standardInput
    } else {
      guard let opened = FileHandle(forReadingAtPath: path) else { throw LocationSourceError("cannot read the replay file \(path)") }
      handle = opened
    }
    state.withLock { $0.started = true }
    let thread = Thread { [self] in
      var number = 0
      var pending = Data()
      func line(_ bytes: Data) {
        number += 1
        guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) else { return }
        do {
          deliver(try report(bytes))
        } catch {
          log("\(name) line \(number): \(error)")
        }
      }
      while !state.withLock({ $0.stopped }) {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        pending.append(chunk)
        while let newline = pending.firstIndex(of: 0x0A), !state.withLock({ $0.stopped }) {
          line(Data(pending[pending.startIndex..<newline]))
          pending = Data(pending[pending.index(after: newline)...])
        }
      }
      if !pending.isEmpty, !state.withLock({ $0.stopped }) { line(pending) }
      log("\(name): finished after \(number) lines")
      done.signal()
    }
    thread.name = "whilehere.replay"
    thread.start()
  }

  /// Blocks until every line was delivered (or `stop`).
  public func waitUntilFinished() {
    guard state.withLock({ $0.started }) else { return }
    done.wait()
    done.signal()
  }

  public func stop() {
    state.withLock { $0.stopped = true }
  }

  func report(_ line: Data) throws -> PhoneReport {
    let now = clock.now()
    guard case .object(let object) = try JSONParser.parse(line) else { throw OwnTracksError("a line must be a JSON object") }
    let report: PhoneReport
    if object["_type"] != nil {
      report = try OwnTracksCodec.decode(line, now: restamp ? .distantFuture : now)
    } else {
      let fields = OwnTracksFields(type: "fix", object: object)
      guard case .string(let text)? = object["t"], let at = Self.time(text) else { throw OwnTracksError("fix.t must be an ISO-8601 time") }
      report = .location(PhoneFix(coordinate: try fields.coordinate(required: true)!, accuracy: try fields.number("acc", in: 0...1_000_000), at: at, trigger: "replay"))
    }
    guard restamp, case .location(let fix) = report else { return report }
    let shift = state.withLock { progress in
      if progress.shift == nil { progress.shift = now.timeIntervalSince(fix.at) }
      return progress.shift ?? 0
    }
    return .location(
      PhoneFix(
        coordinate: fix.coordinate, accuracy: fix.accuracy, at: fix.at.addingTimeInterval(shift), battery: fix.battery, charging: fix.charging,
        trigger: fix.trigger))
  }

  static func time(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }
}

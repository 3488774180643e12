import Foundation

/// The daemon's structured log: one line per event on standard output,
/// `whilehered: EVENT key=value …`, values quoted when they hold spaces.
public struct DaemonLog: Sendable {
  private let write: @Sendable (String) -> Void

  public init(write: @escaping @Sendable (String) -> Void) {
    self.write = write
  }

  public static let standardOutput = DaemonLog { line in
    print(line)
    fflush(nil)
  }

  public func callAsFunction(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) {
    self(event, ordered: fields.map { ($0.key, $0.value) })
  }

  /// The same with the fields as an ordered list (what sinks built by the registry log).
  public func callAsFunction(_ event: String, ordered fields: [(String, String)]) {
    let rendered = fields.map { key, value in
      let needsQuotes = value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" })
      return "\(key)=" + (needsQuotes ? "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\"" : value)
    }
    write((["whilehered: \(event)"] + rendered).joined(separator: " "))
  }
}

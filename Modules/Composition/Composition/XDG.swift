/// The XDG base directories, with the spec's fallbacks under $HOME.
public enum XDG {
  public static func home(_ environment: [String: String]) -> String {
    environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
  }

  public static func dataHome(_ environment: [String: String]) -> String {
    absolute(environment["XDG_DATA_HOME"]) ?? home(environment) + "/.local/share"
  }

  public static func configHome(_ environment: [String: String]) -> String {
    absolute(environment["XDG_CONFIG_HOME"]) ?? home(environment) + "/.config"
  }

  /// The spec ignores relative paths in these variables.
  private static func absolute(_ value: String?) -> String? {
    guard let value, value.hasPrefix("/") else { return nil }
    return value
  }

  public static func expandTilde(_ path: String, _ environment: [String: String]) -> String {
    if path == "~" { return home(environment) }
    if path.hasPrefix("~/") { return home(environment) + path.dropFirst(1) }
    return path
  }
}

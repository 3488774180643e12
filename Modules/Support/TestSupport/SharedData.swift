import Foundation

/// ../shared beside the project (real data for tests). A checkout without
/// it still passes its tests, with these skipped; a CI run (`CI=true`)
/// always runs them, so losing the data there fails loudly.
public enum SharedData {
  public static let takeout = "../shared/data/takeout"

  public static var available: Bool {
    FileManager.default.fileExists(atPath: takeout) || ProcessInfo.processInfo.environment["CI"] == "true"
  }
}

import Domain

/// Where places come from.
///
/// Contract (checked by `PlaceProviderConformance` in TestSupport):
/// - `nearby` returns places within `radius` metres of `point`, nearest first
///   (ties by ref), only of the given categories when any are given, at most
///   `limit`;
/// - `search` returns places whose name (accents, case and punctuation
///   ignored) contains every word of the text, nearest to `near` first when
///   given, else A–Z, at most `limit`;
/// - `searchAddress` returns places whose address (street words folded, a
///   house number exactly) contains every word of the text, nearest to
///   `near` first when given, else A–Z, at most `limit`; a provider that
///   cannot search addresses returns none;
/// - `place(ref:)` returns the current data of one place, nil when gone;
/// - both answer from what the provider holds; an unreachable provider
///   throws `ProviderError` and never returns a partial list as complete.
public protocol PlaceProvider: Sendable {
  /// A short name for `whilehere doctor` (`osm-geojson:FILE`).
  var name: String { get }
  /// How many places it holds (nil when unknown, as for a remote API).
  var count: Int? { get }
  func nearby(_ point: Coordinate, radius: Double, categories: Set<String>, limit: Int) throws -> [ProviderPlace]
  func search(_ text: String, near: Coordinate?, limit: Int) throws -> [ProviderPlace]
  /// The place with this ref as the provider holds it now, or nil when the
  /// provider no longer has it.
  func place(ref: String) throws -> ProviderPlace?
  /// Places at an address ("Mannerheimintie 22").
  func searchAddress(_ text: String, near: Coordinate?, limit: Int) throws -> [ProviderPlace]
}

extension PlaceProvider {
  public func searchAddress(_ text: String, near: Coordinate?, limit: Int) throws -> [ProviderPlace] { [] }
}

public struct ProviderError: Error, Equatable, Sendable, CustomStringConvertible {
  public let provider: String
  public let reason: String

  public init(provider: String, reason: String) {
    self.provider = provider
    self.reason = reason
  }

  public var description: String { "place provider \(provider): \(reason)" }
}

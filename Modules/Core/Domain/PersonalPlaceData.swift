/// What the person typed or corrected. Never expires.
public struct PersonalPlaceData: Hashable, Codable, Sendable {
  public var name: String?
  public var coordinate: Coordinate?
  public var address: String?
  public var tags: [String]
  public var note: String

  public init(
    name: String? = nil, coordinate: Coordinate? = nil, address: String? = nil,
    tags: [String] = [], note: String = ""
  ) {
    self.name = name
    self.coordinate = coordinate
    self.address = address
    self.tags = tags
    self.note = note
  }
}

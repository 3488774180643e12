import Foundation

/// A named list of places ("Groceries"). Membership lives apart so one place
/// can be in many lists.
public struct PlaceList: Hashable, Codable, Sendable {
  public let id: ListID
  public var name: String
  public let createdAt: Date

  public init(id: ListID, name: String, createdAt: Date) throws(DomainError) {
    let trimmed = try CleanText.name(name, field: "list name")
    guard !trimmed.isEmpty else {
      throw .invalidValue(field: "list name", value: name, allowed: "a non-empty name")
    }
    self.id = id
    self.name = trimmed
    self.createdAt = createdAt
  }
}

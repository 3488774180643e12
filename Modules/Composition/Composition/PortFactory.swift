/// A registry entry for one of whilehered's own ports (its HTTP server,
/// MQTT client, local location sources, password hasher): what it is, and
/// how to make one from what that port needs.
public struct PortFactory<Input, Product>: Sendable {
  public let summary: String
  public let make: @Sendable (Input) throws -> Product

  public init(summary: String, make: @escaping @Sendable (Input) throws -> Product) {
    self.summary = summary
    self.make = make
  }
}

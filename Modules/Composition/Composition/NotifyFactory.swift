import Foundation
import Notifications
import PushSinks

/// How one notification sink is checked and built from its entry in
/// `notify` (`ntfy:https://ntfy.sh/topic`): the registry holds one per
/// name, so the daemon, `doctor` and the list of known names agree.
public struct NotifyFactory: Sendable {
  /// What a sink is given: its entry's argument, whose reminders it carries,
  /// the answer links, and how to report and answer.
  public struct Input: Sendable {
    public let spec: String
    public let argument: String?
    public let person: String
    public let settings: PersonSettings
    public let environment: [String: String]
    public let links: any ActionLinkMaker
    /// Applies a button pressed on this machine (the desktop).
    public let answer: @Sendable (ReminderNotification, ReminderAction) -> Void
    /// The program's log: a kind and its fields.
    public let log: @Sendable (String, [(String, String)]) -> Void
    /// The first retry's delay for queued deliveries (tests make it 0).
    public let retryDelay: TimeInterval

    public init(
      spec: String, person: String, settings: PersonSettings, environment: [String: String], links: any ActionLinkMaker,
      answer: @escaping @Sendable (ReminderNotification, ReminderAction) -> Void, log: @escaping @Sendable (String, [(String, String)]) -> Void,
      retryDelay: TimeInterval
    ) {
      self.spec = spec
      argument = ProviderSpec(spec).argument
      self.person = person
      self.settings = settings
      self.environment = environment
      self.links = links
      self.answer = answer
      self.log = log
      self.retryDelay = retryDelay
    }

    /// A delivery queue for a network sink, logging as `delivery`.
    func queue(_ name: String) -> DeliveryQueue {
      let log = log
      let person = person
      return DeliveryQueue(label: "\(person).\(name)", firstDelay: retryDelay, log: { message in log("delivery", [("person", person), ("detail", message)]) })
    }

    func invalid(_ form: String) -> ConfigError { ConfigError.invalidValue(source: "notify", key: "notify", value: spec, allowed: form) }
  }

  public let summary: String
  /// Whether its reminders can reach the person (a phone, a desktop, a
  /// service they read); false for a log or a file, which a daemon whose
  /// every sink is such says on the person's status.
  public let reachesPerson: Bool
  /// Refuses what `make` would refuse, building nothing (no file, no request).
  public let check: @Sendable (Input) throws -> Void
  /// The sink, and its delivery queue when it has one.
  public let make: @Sendable (Input) throws -> (any NotificationSink, DeliveryQueue?)

  public init(
    summary: String, reachesPerson: Bool = true, check: @escaping @Sendable (Input) throws -> Void = { _ in },
    make: @escaping @Sendable (Input) throws -> (any NotificationSink, DeliveryQueue?)
  ) {
    self.summary = summary
    self.reachesPerson = reachesPerson
    self.check = check
    self.make = make
  }
}

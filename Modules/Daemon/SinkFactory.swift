import Composition
import Foundation
import Gateway
import Notifications
import PushSinks
import Sodium

/// Builds notification sinks from their names in config (`console`,
/// `jsonl:PATH`, `ntfy:URL/TOPIC`, `webhook:URL`); an unknown name is an
/// error listing the known ones.
struct SinkFactory {
  let log: DaemonLog
  let environment: [String: String]
  let retryDelay: TimeInterval

  static let known = NotifyCheck.known

  func make(
    _ spec: String, person: String, settings: PersonSettings, links: any ActionLinkMaker, relay: AnswerRelay
  ) throws -> (any NotificationSink, DeliveryQueue?) {
    // The same refusals doctor shows (NotifyCheck), then the sink.
    try NotifyCheck.validate(spec, person: person, settings: settings, environment: environment)
    let provider = ProviderSpec(spec)
    let log = log
    let queue = { DeliveryQueue(label: "\(person).\(provider.name)", firstDelay: retryDelay, log: { message in log("delivery", ["person": person, "detail": message]) }) }
    switch provider.name {
    case "desktop":
      let sink = try DesktopSink(
        command: provider.argument ?? "/usr/bin/notify-send",
        answer: { notification, action in relay.answer(action, notification: notification) },
        log: { message in log("desktop", ["person": person, "detail": message]) })
      return (sink, nil)
    case "console":
      return (DaemonConsoleSink(person: person, links: links, log: log), nil)
    case "jsonl":
      guard let path = provider.argument else { throw invalid(spec, "jsonl:PATH") }
      return (try JSONLinesSink(path: XDG.expandTilde(path, environment), links: links), nil)
    case "ntfy":
      guard let address = provider.argument else { throw invalid(spec, "ntfy:https://HOST/TOPIC") }
      let made = queue()
      let sink = try NtfySink(address: address, token: settings.ntfyToken.isEmpty ? nil : settings.ntfyToken, links: links, queue: made)
      return (sink, made)
    case "webhook":
      guard let address = provider.argument else { throw invalid(spec, "webhook:https://HOST/PATH") }
      guard !settings.webhookSecret.isEmpty else {
        throw ConfigError.invalidValue(
          source: "people.\(person)", key: "people.\(person).webhookSecret", value: "", allowed: "a secret the receiver shares, to sign webhook requests")
      }
      let made = queue()
      let sink = try WebhookSink(address: address, secret: settings.webhookSecret, authenticator: SodiumHMAC(), links: links, queue: made)
      return (sink, made)
    default:
      throw ConfigError.unknownProvider(port: "notify", name: provider.name, known: Self.known)
    }
  }

  private func invalid(_ spec: String, _ form: String) -> ConfigError {
    ConfigError.invalidValue(source: "notify", key: "notify", value: spec, allowed: form)
  }
}

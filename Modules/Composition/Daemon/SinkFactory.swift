import Composition
import Foundation
import Notifications
import PushSinks

/// Builds a person's notification sinks from their names in config through
/// the registry (`ProviderRegistry.notify`), with the daemon's log, answer
/// links and the relay that applies a button pressed on this machine.
struct SinkFactory {
  let registry: ProviderRegistry
  let log: DaemonLog
  let environment: [String: String]
  let retryDelay: TimeInterval

  func make(
    _ spec: String, person: String, settings: PersonSettings, links: any ActionLinkMaker, relay: AnswerRelay
  ) throws -> (any NotificationSink, DeliveryQueue?) {
    let log = log
    return try registry.makeSink(
      NotifyFactory.Input(
        spec: spec, person: person, settings: settings, environment: environment, links: links,
        answer: { notification, action in relay.answer(action, notification: notification) }, log: { kind, fields in log(kind, ordered: fields) },
        retryDelay: retryDelay))
  }
}

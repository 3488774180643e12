import CurlHTTP
#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Notifications
import PushSinks
import Sodium

extension ProviderRegistry {
  /// The notification sinks whilehered knows, by name.
  static func registerSinks(_ registry: inout ProviderRegistry) {
    registry.notify["console"] = NotifyFactory(
      summary: "whilehered's log: the reminder, its buttons and each button's answer link", reachesPerson: false
    ) { input in
      (ConsoleLogSink(person: input.person, links: input.links, log: input.log), nil)
    }
    registry.notify["desktop"] = NotifyFactory(summary: "desktop[:COMMAND], a freedesktop notification with both buttons (notify-send)") { input in
      let log = input.log
      let person = input.person
      let sink = try DesktopSink(
        command: input.argument ?? "/usr/bin/notify-send", answer: input.answer,
        log: { message in log("desktop", [("person", person), ("detail", message)]) })
      return (sink, nil)
    }
    registry.notify["jsonl"] = NotifyFactory(
      summary: "jsonl:PATH, one JSON line per reminder with its answer links (0600)", reachesPerson: false,
      check: { input in
        guard let path = input.argument, !path.isEmpty else { throw input.invalid("jsonl:PATH") }
        let full = XDG.expandTilde(path, input.environment)
        let parent = (full as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
          throw input.invalid("jsonl:PATH in a directory that exists (\(directory) does not)")
        }
        guard access(directory, W_OK) == 0 else { throw input.invalid("jsonl:PATH in a directory whilehered may write (\(directory) is not writable)") }
      },
      make: { input in (try JSONLinesSink(path: XDG.expandTilde(input.argument ?? "", input.environment), links: input.links), nil) })
    registry.notify["ntfy"] = NotifyFactory(
      summary: "ntfy:URL/TOPIC, ntfy's JSON API with Mark Done and Remind Later as http buttons",
      check: { input in
        guard let address = input.argument, let url = URL(string: address), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
          throw input.invalid("ntfy:https://HOST/TOPIC")
        }
        guard url.path.split(separator: "/").count >= 1 else { throw input.invalid("ntfy:https://HOST/TOPIC (a topic after the host)") }
      },
      make: { input in
        let queue = input.queue("ntfy")
        let token = input.settings.ntfyToken
        return (try NtfySink(address: input.argument ?? "", token: token.isEmpty ? nil : token, links: input.links, queue: queue, client: CurlHTTPClient()), queue)
      })
    registry.notify["webhook"] = NotifyFactory(
      summary: "webhook:URL, a signed JSON document per reminder (needs people.NAME.webhookSecret)",
      check: { input in
        guard let address = input.argument, let url = URL(string: address), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
          throw input.invalid("webhook:https://HOST/PATH")
        }
        guard !input.settings.webhookSecret.isEmpty else {
          throw ConfigError.invalidValue(
            source: "people.\(input.person)", key: "people.\(input.person).webhookSecret", value: "",
            allowed: "a secret the receiver shares, to sign webhook requests")
        }
      },
      make: { input in
        let queue = input.queue("webhook")
        let sink = try WebhookSink(
          address: input.argument ?? "", secret: input.settings.webhookSecret, authenticator: SodiumHMAC(), links: input.links, queue: queue,
          client: CurlHTTPClient())
        return (sink, queue)
      })
  }

  /// Checks `input`'s entry, then builds its sink; an unknown name lists the known ones.
  public func makeSink(_ input: NotifyFactory.Input) throws -> (any NotificationSink, DeliveryQueue?) {
    let factory = try sinkFactory(input.spec)
    try factory.check(input)
    return try factory.make(input)
  }

  func sinkFactory(_ spec: String) throws -> NotifyFactory {
    let name = ProviderSpec(spec).name
    guard let factory = notify[name] else { throw ConfigError.unknownProvider(port: "notify", name: name, known: notify.keys.sorted()) }
    return factory
  }
}

import ArgumentParsing
import Composition
import Foundation

/// `whilehere cluster …`: what the NATS servers of a cluster of
/// whilehered workers need (Docs/Cluster.md).
enum ClusterCommands {
  static var command: CommandSpec<CommandContext> {
    CommandSpec(
      "cluster", "Set up the NATS servers of a cluster of whilehered workers",
      subcommands: [
        CommandSpec(
          "mqtt", "Let OwnTracks phones publish to NATS's own MQTT listener: writes the servers' configuration and shows new tokens once",
          positionals: [("NAME", "the people to let in (default: everyone in the config)")], required: 0, variadicTail: true,
          options: [
            .value("out", "FILE", "where to write the configuration (created 0600; replaced: it lets in only the people of this run)"),
            .value("port", "PORT", "the MQTT listener's port (default 1883)"),
          ], action: mqtt),
      ],
      discussion: "Include the file in every NATS node's configuration and restart them; then use the workers' token in cluster.nats, the nats: store and mqtt.user/mqtt.password, as printed.")
  }

  struct Shown: Encodable {
    let configuration: String
    let port: Int
    let workerUser: String
    let workerToken: String
    let tokens: [String: String]
  }

  static func mqtt(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    guard let out = arguments.value("out") else { throw UsageError("say where to write the configuration: --out FILE", commandPath: arguments.commandPath) }
    let portText = arguments.value("port") ?? "1883"
    guard let port = Int(portText) else { throw UsageError("--port '\(portText)' is not a number", commandPath: arguments.commandPath) }
    let settings = try ConfigLoader.load(context.launchOptions).settings
    let issued = try ClusterMQTTSetup.issue(settings, people: arguments.positionals, port: port)
    try ClusterMQTTSetup.write(issued.configuration, to: out)
    if context.json {
      return context.printJSON(Shown(configuration: out, port: port, workerUser: issued.workerUser, workerToken: issued.workerToken, tokens: issued.tokens))
    }
    let output = context.output
    output.out("Wrote \(out): include it in every NATS node's configuration (include \(out)) and restart them.")
    output.out("Tokens, shown only now (the file keeps their bcrypt):")
    output.out("  workers: user \(issued.workerUser), token \(issued.workerToken)")
    output.out("    cluster.nats and the nats: store: nats://\(issued.workerUser):TOKEN@HOST:4222,…;stream=…")
    output.out("    mqtt.host HOST, mqtt.port \(port), mqtt.user \(issued.workerUser), mqtt.password TOKEN (the workers send phones their commands)")
    for name in issued.tokens.keys.sorted() {
      output.out("  \(name): \(issued.tokens[name]!)")
    }
    output.out("In each person's OwnTracks app: Mode MQTT, Host a NATS node, Port \(port), Username their name, Password their token.")
  }
}


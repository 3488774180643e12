import ArgumentParsing
import Composition
import Domain
import Foundation

/// `whilehere device …`: credentials of a person's phones, so each phone
/// proves itself with its own token instead of the person's password.
enum DeviceCommands {
  static var command: CommandSpec<CommandContext> {
    CommandSpec(
      "device", "Give a person's phone its own credential for whilehered",
      subcommands: [
        CommandSpec(
          "add", "Issue a new token for a device (shown once; replaces an earlier one)",
          positionals: [("NAME", "the person"), ("DEVICE", "the device's name, as the OwnTracks app sends it")], action: add),
        CommandSpec("list", "The devices of a person that have a token", positionals: [("NAME", "the person")], action: list),
        CommandSpec("remove", "Withdraw a device's token", positionals: [("NAME", "the person"), ("DEVICE", "the device")], action: remove),
      ],
      discussion: "In the OwnTracks app: Identification → Username NAME, Password the token, Device ID DEVICE. Restart whilehered to apply.")
  }

  static func add(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let name = arguments.positionals[0]
    let device = arguments.positionals[1]
    guard (1...64).contains(device.count), device.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || "-_.".contains($0) }) else { throw UsageError("a device name is 1–64 letters, digits, '-', '_' or '.'", commandPath: arguments.commandPath) }
    let path = ConfigFileEditor.path(explicit: arguments.value("config"), environment: context.environment)
    let issued = Runtime.issueDeviceKey()
    try ConfigFileEditor.setDeviceKey(person: name, device: device, stored: issued.stored, path: path)
    if context.json { return context.printJSON(["person": name, "device": device, "token": issued.token, "config": path]) }
    context.output.out("Token for \(name)'s \(device) (shown only now; the config keeps a hash):")
    context.output.out("  \(issued.token)")
    context.output.out("In the OwnTracks app: Username \(name), Password the token above, Device ID \(device). Restart whilehered to apply.")
  }

  static func list(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let path = ConfigFileEditor.path(explicit: arguments.value("config"), environment: context.environment)
    let devices = try ConfigFileEditor.deviceKeys(person: arguments.positionals[0], path: path)
    if context.json { return context.printJSON(devices) }
    if devices.isEmpty { context.output.out("No device of \(arguments.positionals[0]) has a token. Issue one: whilehere device add \(arguments.positionals[0]) phone") }
    devices.forEach(context.output.out)
  }

  static func remove(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let path = ConfigFileEditor.path(explicit: arguments.value("config"), environment: context.environment)
    guard try ConfigFileEditor.removeDeviceKey(person: arguments.positionals[0], device: arguments.positionals[1], path: path) else {
      throw DomainError.notFound(kind: "device token", reference: "\(arguments.positionals[0])/\(arguments.positionals[1])")
    }
    context.output.out("Withdrew the token of \(arguments.positionals[0])'s \(arguments.positionals[1]). Restart whilehered to apply.")
  }
}

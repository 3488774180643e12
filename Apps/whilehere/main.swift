import CLI
import Foundation

let environment = ProcessInfo.processInfo.environment
CLI.installCrashReporter(environment: environment)
exit(CLI.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment, output: StandardOutput()))

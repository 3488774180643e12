import CLI
import Foundation

exit(CLI.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment, output: StandardOutput()))

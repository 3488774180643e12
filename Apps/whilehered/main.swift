// whilehered: the headless profile. Serves OwnTracks phones over HTTP,
// fires reminders to the configured sinks, takes the answers, and stops
// cleanly on SIGTERM or SIGINT.
import Foundation

exit(DaemonMain.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))

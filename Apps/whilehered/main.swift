// whilehered: the headless profile. In this version it starts, reads the
// config, opens the store, reports readiness and stops cleanly on SIGTERM
// or SIGINT. Location ingest and notifications come with the daemon issue.
import CLI
import Foundation

exit(Daemon.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))

// Test helper: installs the crash reporter as whilehere does, leaves a
// breadcrumb, and dies of a Swift runtime trap, so the crash test can look
// at the report it leaves.
import Analytics
import Composition
import Foundation

CrashReporter.install(program: .cli, version: Version("0.1.0"), environment: ProcessInfo.processInfo.environment)
CrashReporter.breadcrumb(.sync)
CrashReporter.breadcrumb(.task)
let numbers: [Int] = []
print(numbers[Int(CommandLine.arguments.count)])

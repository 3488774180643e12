import ArgumentParsing
import Composition
import Engine
import Exchange
import Importing
import Domain
import Persistence
import Sync

/// Exit codes follow sysexits.h so scripts can tell causes apart; the
/// README lists them.
public enum ExitCode {
  public static let ok: Int32 = 0
  public static let usage: Int32 = 64
  public static let invalidInput: Int32 = 65
  public static let notFound: Int32 = 66
  public static let ioError: Int32 = 74
  public static let storeInUse: Int32 = 75
  public static let config: Int32 = 78
  public static let failure: Int32 = 1
  /// Stopped by Ctrl-C (128 + SIGINT, as shells report it).
  public static let cancelled: Int32 = 130

  public static func of(_ error: any Error) -> Int32 {
    switch error {
    case is UsageError: return usage
    case let domain as DomainError:
      if case .notFound = domain { return notFound }
      return invalidInput
    case let store as StoreError:
      if case .locked = store { return storeInUse }
      return ioError
    case is ConfigError: return config
    case is ImportError: return invalidInput
    case is SyncError, is ICalendar.Failure: return invalidInput
    case let interrupted as ImportService.Interrupted: return interrupted.reason == .cancelled ? cancelled : storeInUse
    default: return failure
    }
  }
}

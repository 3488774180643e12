import Domain
import FileStore
import Foundation
import Persistence
import Testing
import TestSupport

/// SIGKILLs a process writing to a FileStore at random moments and checks
/// that the store always reopens with every acknowledged write present
/// (StoreCrashTest).
@Suite(.serialized) struct CrashTests {
  static var torturePath: String { BuiltProduct.path("store-torture") }

  /// `lazy`: the store opened as the CLI opens it, every write made in
  /// place (`LazyFileStore.appendInPlace`) until a compaction is due.
  @Test(arguments: [false, true]) func acknowledgedWritesSurviveSIGKILL(lazy: Bool) throws {
    let outcome = try StoreCrashTest.run(
      helper: Self.torturePath, target: { (lazy ? "lazy:" : "") + $0.file("store") }, open: { try FileOperationStore(directory: $0.file("store")) })
    #expect(outcome.losses.isEmpty, "\(outcome.losses)")
    #expect(outcome.unexpectedExits.isEmpty, "the writer died on its own: iterations \(outcome.unexpectedExits)")
    #expect(outcome.acknowledged > outcome.iterations, "the writer acknowledged too little to prove anything (\(outcome.acknowledged) acks)")
    #expect(outcome.tags > outcome.iterations / 2, "the place editor acknowledged too few tags (\(outcome.tags))")
    if lazy { #expect(outcome.inPlace > outcome.iterations / 4, "too few writers wrote in place (\(outcome.inPlace) of \(outcome.iterations))") }
  }
}

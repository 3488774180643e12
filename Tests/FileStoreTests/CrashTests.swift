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
      helper: Self.torturePath, target: { (lazy ? "lazy:" : "") + $0.file("store") }, open: { try FileOperationStore(directory: $0.file("store")) },
      enough: { $0.provesEnough(inPlace: lazy) })
    #expect(outcome.losses.isEmpty, "\(outcome.losses)")
    #expect(outcome.unexpectedExits.isEmpty, "the writer died on its own: iterations \(outcome.unexpectedExits)")
    #expect(outcome.provesEnough(inPlace: lazy), "too little proved: \(outcome.evidence)")
  }
}

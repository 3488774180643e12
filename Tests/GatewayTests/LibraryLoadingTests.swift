import Foundation
import TestSupport
import Testing

/// How every shim reaches its C library (CLibraryLoading): loaded at the
/// first call from any thread, and a clear stop when it cannot be.
@Suite struct LibraryLoadingTests {
  @Test func aLibraryLoadsAtItsFirstCallAndEveryThreadGetsTheSameFunction() throws {
    let run = try BuiltProduct.run("library-loading-helper", ["present"], environment: [:])
    #expect(run.status == 0, "\(run.output)")
    // SQLite's version, e.g. 3.40.1.
    #expect(run.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3, "\(run.output)")
  }

  @Test func aLibraryNoOneInstalledStopsTheProgramNamingWhatNeedsItAndThePackage() throws {
    let run = try BuiltProduct.run("library-loading-helper", ["absent"], environment: [:])
    #expect(run.status == 127, "\(run.output)")
    #expect(run.output.contains("cannot load libwhilehere-absent.so.9, which the helper's test needs"), "\(run.output)")
    #expect(run.output.contains("install Debian's whilehere-absent"), "\(run.output)")
    #expect(!run.output.contains("the loader returned"))
  }

  @Test func aFunctionTheLibraryLacksStopsTheProgramToo() throws {
    let run = try BuiltProduct.run("library-loading-helper", ["missing"], environment: [:])
    #expect(run.status == 127, "\(run.output)")
    #expect(run.output.contains("libsqlite3.so.0 has no function sqlite3_whilehere_nothing"), "\(run.output)")
  }
}

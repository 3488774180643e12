import CLI
import Composition
import Foundation
import Testing

@Suite struct ForgetTests {
  @Test func forgetErasesTheStoreAndOnlyTheStore() throws {
    let cli = CLIHarness()
    #expect(cli.run("task", "add", "Buy milk", "--at", "60.17,24.94").code == 0)
    #expect(cli.run("place", "add", "Home", "--at", "60.16,24.93").code == 0)
    _ = FileManager.default.createFile(atPath: cli.storeDirectory + "/notes.txt", contents: Data("mine".utf8))
    let refused = cli.run("forget")
    #expect(refused.code == 64, "without a terminal it must be told --yes")
    #expect(refused.stderr.contains("1 tasks, 1 places"))
    #expect(cli.run("task", "list").stdout.contains("Buy milk"), "a refused forget erased something")
    let erased = cli.run("forget", "--yes")
    #expect(erased.code == 0)
    #expect(erased.stdout.contains("Erased 1 tasks, 1 places"))
    #expect(erased.stdout.contains("left alone (not WhileHere's): \(cli.storeDirectory)/notes.txt"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: cli.storeDirectory) == ["notes.txt"])
    #expect(cli.run("task", "list").stdout.hasPrefix("No tasks"))
  }

  /// Never under a process that writes the store: a holder makes forget
  /// refuse and erase nothing; a running daemon is named.
  @Test func forgetRefusesWhileAnotherProcessHoldsTheStore() throws {
    let cli = CLIHarness()
    #expect(cli.run("task", "add", "Buy milk", "--at", "60.17,24.94").code == 0)
    let before = try FileManager.default.contentsOfDirectory(atPath: cli.storeDirectory).sorted()
    do {
      let holder = try FileOperationStoreHolder(directory: cli.storeDirectory)
      defer { holder.release() }
      let refused = cli.run("forget", "--yes")
      #expect(refused.code == ExitCode.storeInUse, "\(refused.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: cli.storeDirectory).sorted() == before)
    }
    try LocalDaemon(pid: getpid(), url: "http://127.0.0.1:9", token: "x").write(to: cli.storeDirectory + "/" + LocalDaemon.fileName)
    let named = cli.run("forget", "--yes")
    #expect(named.code == ExitCode.usage)
    #expect(named.stderr.contains("whilehered (pid \(getpid())) holds this store; stop it first"), "\(named.stderr)")
  }
}

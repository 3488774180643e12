#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Persistence

/// An exclusive advisory lock on the store directory. The kernel drops it
/// when the process dies, so a crash never leaves the store locked; the pid
/// inside only serves the message a second process prints.
final class FileLock {
  private let fd: Int32
  let path: String

  init(path: String) throws {
    self.path = path
    fd = try PosixFile.open(path, flags: O_RDWR | O_CREAT)
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let busy = errno == EWOULDBLOCK
      let holder = Self.readPID(fd)
      Glibc.close(fd)
      if busy { throw StoreError.locked(path: path, pid: holder) }
      throw PosixFile.error(path, "lock")
    }
    _ = ftruncate(fd, 0)
    let pid = Array("\(getpid())\n".utf8)
    _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
  }

  private static func readPID(_ fd: Int32) -> Int32? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { return nil }
    let text = String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return Int32(text)
  }

  func release() {
    flock(fd, LOCK_UN)
    Glibc.close(fd)
  }
}

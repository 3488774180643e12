#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Persistence

/// The store's writer lock: an exclusive advisory lock on `LOCK`. The kernel
/// drops it when the process dies, so a crash never leaves the store locked;
/// the pid inside only serves the message a refused writer prints. A writer
/// that finds it held waits up to `wait` seconds for it.
final class FileLock {
  private let fd: Int32
  let path: String

  init(path: String, wait: TimeInterval) throws {
    self.path = path
    do {
      fd = try PosixFile.open(path, flags: O_RDWR | O_CREAT)
    } catch let error as StoreError {
      if [EROFS, EACCES, EPERM].contains(errno) {
        throw StoreError.readOnly(path: (path as NSString).deletingLastPathComponent, reason: "its writer lock (LOCK) cannot be opened for writing")
      }
      throw error
    }
    let deadline = Date().addingTimeInterval(wait)
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let busy = errno == EWOULDBLOCK
      guard busy, Date() < deadline else {
        let holder = Self.readPID(fd)
        Glibc.close(fd)
        if busy { throw StoreError.locked(path: path, pid: holder) }
        throw PosixFile.error(path, "lock")
      }
      // A CLI writer holds the lock for one batch; poll rather than block so the wait stays bounded.
      usleep(10_000)
    }
    _ = ftruncate(fd, 0)
    let pid = Array("\(getpid())\n".utf8)
    _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
  }

  /// The pid written by whoever holds the lock now, if anyone does.
  static func holder(path: String) -> Int32? {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { Glibc.close(fd) }
    guard flock(fd, LOCK_SH | LOCK_NB) != 0 else {
      flock(fd, LOCK_UN)
      return nil
    }
    return readPID(fd) ?? -1
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

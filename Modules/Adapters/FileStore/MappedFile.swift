#if canImport(Glibc)
  import Glibc
#endif
import Persistence

/// A file mapped read-only: a reader touches only the pages it reads, and
/// nothing is copied or zeroed first (reading a 10 MB snapshot into an
/// array cost more than the command that needed a few records of it).
final class MappedFile: Sendable {
  // The mapping's address as a number (Sendable as it is), read-only until deinit.
  private let address: UInt
  private let count: Int

  var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count) }

  /// nil when there is no such file.
  init?(_ path: String) throws {
    let fd: Int32
    do { fd = try PosixFile.open(path, flags: O_RDONLY) } catch StoreError.io where errno == ENOENT { return nil }
    defer { Glibc.close(fd) }
    let size = try PosixFile.size(fd, path: path)
    guard size > 0 else {
      (address, count) = (0, 0)
      return
    }
    guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { throw PosixFile.error(path, "map") }
    (address, count) = (UInt(bitPattern: base), size)
  }

  deinit {
    if let base = UnsafeMutableRawPointer(bitPattern: address) { munmap(base, count) }
  }
}

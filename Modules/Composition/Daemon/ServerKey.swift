import Foundation

/// The key that signs answer links: read from its file, or made and saved
/// 0600 on first start so links survive a restart.
enum ServerKey {
  static func load(path: String, length: Int, generate: () -> Data) throws -> Data {
    if let data = FileManager.default.contents(atPath: path) {
      guard data.count == length else {
        throw DaemonError("the key file \(path) holds \(data.count) bytes, not \(length); delete it to make a new one (old answer links stop working)")
      }
      return data
    }
    let directory = (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let key = generate()
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw DaemonError("cannot create the key file \(path): \(String(cString: strerror(errno)))") }
    defer { close(descriptor) }
    let written = key.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == key.count, fsync(descriptor) == 0 else { throw DaemonError("cannot write the key file \(path)") }
    return key
  }
}

import Foundation

/// Free loopback ports for test servers (mosquitto, gpsfake) that must be
/// told a port.
public enum LoopbackPort {
  /// A port nothing listens on now (for servers that cannot be asked for port 0).
  public static func free() throws -> Int {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw LoopbackPortError(description: "no socket") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
    }
    guard bound else { throw LoopbackPortError(description: "cannot find a free port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Connects `socket` (IPv4, stream) to 127.0.0.1:`port`; whether it did.
  public static func connect(_ socket: Int32, to port: Int) -> Bool {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
  }

}

struct LoopbackPortError: Error, CustomStringConvertible {
  let description: String
}

import Domain
import Foundation

/// The store's record checksum, exposed so benchmarks can measure the raw
/// cost of reading and checking bytes next to a full open.
public enum FileStoreChecksum {
  public static func crc32(_ data: Data) -> UInt32 {
    data.withUnsafeBytes { CRC32.checksum($0) }
  }
}

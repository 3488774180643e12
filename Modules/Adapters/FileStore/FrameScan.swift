import Domain
/// Reads the frames of a file and tells a torn tail (an unacknowledged write
/// cut short by a crash: nothing valid follows it) from damage in the middle
/// (a valid frame follows the bad bytes), which must never be dropped.
struct FrameScan {
  enum Outcome: Equatable {
    /// Every byte belongs to a valid frame.
    case clean
    /// Bytes from `offset` to the end are an incomplete or garbled last write.
    case tornTail(offset: Int)
    /// The frame at `offset` is bad and valid data follows it.
    case damaged(offset: Int, reason: String)
  }

  /// Payload ranges of the valid frames, in file order.
  var payloads: [Range<Int>] = []
  var outcome: Outcome = .clean

  init(_ bytes: UnsafeRawBufferPointer, from start: Int) {
    var offset = start
    while offset < bytes.count {
      switch Self.check(bytes, at: offset) {
      case .success(let payload):
        payloads.append(payload)
        offset = payload.upperBound
      case .failure(let problem):
        if let next = Self.nextValidFrame(bytes, after: offset) {
          outcome = .damaged(offset: offset, reason: "\(problem.reason); a valid record follows at offset \(next)")
        } else {
          outcome = .tornTail(offset: offset)
        }
        return
      }
    }
  }

  struct Problem: Error { let reason: String }

  static func check(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Result<Range<Int>, Problem> {
    let remaining = bytes.count - offset
    guard remaining >= Frame.headerSize else {
      return .failure(Problem(reason: "record header cut short (\(remaining) of \(Frame.headerSize) bytes)"))
    }
    for (i, byte) in Frame.magic.enumerated() where bytes[offset + i] != byte {
      return .failure(Problem(reason: "no record marker"))
    }
    let length = Int(Frame.readLE(bytes, at: offset + 4))
    guard length <= Frame.maxPayload, length <= remaining - Frame.headerSize else {
      return .failure(Problem(reason: "record length \(length) runs past the end of the file"))
    }
    let payload = (offset + Frame.headerSize)..<(offset + Frame.headerSize + length)
    let expected = Frame.readLE(bytes, at: offset + 8)
    let actual = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[payload]))
    guard expected == actual else {
      return .failure(Problem(reason: "checksum mismatch"))
    }
    return .success(payload)
  }

  static func nextValidFrame(_ bytes: UnsafeRawBufferPointer, after offset: Int) -> Int? {
    var candidate = offset + 1
    while candidate + Frame.headerSize <= bytes.count {
      if bytes[candidate] == Frame.magic[0], case .success = check(bytes, at: candidate) {
        return candidate
      }
      candidate += 1
    }
    return nil
  }
}

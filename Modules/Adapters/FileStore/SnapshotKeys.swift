import Domain
import Foundation
import Persistence

/// The sidecar a compaction writes beside its snapshot (`keys-N` for
/// `snapshot-N`), so a reader can find one key's records without decoding
/// the rest: where each frame's payload lies, every record's owner key
/// (`EntityKey.owner`) with where it starts, sorted by the owner's bytes,
/// each task location's place and circle box, and each place's name. It
/// only speeds reading: one that is missing, damaged or made for other
/// snapshot bytes is not used (`FileStoreReader` then reads everything).
///
/// Layout, little-endian: the file header (`WHKEY`); the snapshot's bytes
/// (u64) and CRC-32, then the counts of frames, entries and spots and the
/// bytes of the text at the end (u32 each); per frame its payload's start
/// and length; per entry its owner (start and length in the text), frame
/// and start in the frame's payload; per spot its task and place (start
/// and length in the text, a place length of `noPlace` for none) and its
/// box (four doubles, NaN for none); the text; per place (held, by id)
/// its id and name (start and length in the text each), then their count
/// (u32); per membership held, sorted by list id then place id, the
/// list's and the place's id (start and length in the text each), then
/// their count (u32) and `membershipsMark`; per task (held, by id) its id
/// and title (start and length in the text each) and 1 when it is
/// completed, else 0, then their count (u32) and `titlesMark`; per task
/// (held, by id) its listing (`TaskListing.encoded`; start and length in
/// the text), then their count (u32) and `listingsMark`; the CRC-32 of all
/// before. A sidecar from before names ends with the text, one from
/// before memberships with the names' count, one from before titles with
/// `membershipsMark`, one from before listings with `titlesMark`: all are
/// used, names then read from the places' records, a list's places from
/// every place's, titles from every task's and listings from every
/// task's and its places'.
struct SnapshotKeys {
  static let kind = "WHKEY"
  static let noPlace = UInt32.max
  static let fixedBytes = 8 + 4 * 7
  static let frameBytes = 8
  static let entryBytes = 16
  static let spotBytes = 16 + 32
  static let nameBytes = 16
  static let membershipBytes = 16
  static let titleBytes = 20
  static let listingBytes = 8
  /// Ends the memberships' count: a names' count is never this large.
  static let membershipsMark: UInt32 = 0x534D_4857
  /// Ends the titles' count.
  static let titlesMark: UInt32 = 0x5454_4857
  /// Ends the listings' count.
  static let listingsMark: UInt32 = 0x544C_4857

  static func fileName(_ generation: Int) -> String { "keys-\(generation)" }

  /// The sidecar, checked: whole (its CRC), of this version and made for
  /// this snapshot (its length and CRC); nil otherwise.
  private let file: MappedFile
  private var bytes: UnsafeRawBufferPointer { file.bytes }
  let frames: Int
  let entries: Int
  let spots: Int
  /// How many places are named (nil: a sidecar from before names).
  let names: Int?
  /// How many memberships are listed (nil: a sidecar from before them).
  let memberships: Int?
  /// How many tasks are titled (nil: a sidecar from before titles).
  let titles: Int?
  /// How many tasks are listed (nil: a sidecar from before listings).
  let listings: Int?
  private let entriesStart: Int
  private let spotsStart: Int
  private let textStart: Int
  private let namesStart: Int
  private let membershipsStart: Int
  private let titlesStart: Int
  private let listingsStart: Int

  init?(_ file: MappedFile, snapshotBytes: Int, snapshotCRC: UInt32) {
    let bytes = file.bytes
    guard bytes.count >= Self.fixedBytes + 4, Array(bytes[0..<5]) == Array(Self.kind.utf8),
      UInt16(bytes[6]) | UInt16(bytes[7]) << 8 == FileHeader.version,
      CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count - 4)])) == Frame.readLE(bytes, at: bytes.count - 4)
    else { return nil }
    let header = (0..<7).map { Int(Frame.readLE(bytes, at: FileHeader.size + 4 * $0)) }
    guard header[0] | header[1] << 32 == snapshotBytes, UInt32(header[2]) == snapshotCRC else { return nil }
    (frames, entries, spots) = (header[3], header[4], header[5])
    entriesStart = Self.fixedBytes + frames * Self.frameBytes
    spotsStart = entriesStart + entries * Self.entryBytes
    textStart = spotsStart + spots * Self.spotBytes
    namesStart = textStart + header[6]
    // The sections after the text, read from the end: the listings (when
    // there), before them the titles (when there), before them the
    // memberships (when there), before them the names.
    var end = bytes.count - 4
    switch Self.section(bytes, end: end, floor: namesStart, mark: Self.listingsMark, entryBytes: Self.listingBytes, after: Self.titlesMark) {
    case .malformed: return nil
    case .absent: (listingsStart, listings) = (end, nil)
    case .present(let start, let count): (listingsStart, listings, end) = (start, count, start)
    }
    switch Self.section(bytes, end: end, floor: namesStart, mark: Self.titlesMark, entryBytes: Self.titleBytes, after: Self.membershipsMark) {
    case .malformed: return nil
    case .absent: (titlesStart, titles) = (end, nil)
    case .present(let start, let count): (titlesStart, titles, end) = (start, count, start)
    }
    // Where the names' count is: before the memberships when they are there.
    var namesEnd = end
    switch Self.section(bytes, end: end, floor: namesStart, mark: Self.membershipsMark, entryBytes: Self.membershipBytes, after: nil) {
    case .malformed: return nil
    case .absent: (membershipsStart, memberships) = (end, nil)
    case .present(let start, let count): (membershipsStart, memberships, namesEnd) = (start, count, start)
    }
    if namesStart == namesEnd, memberships == nil {
      names = nil
    } else {
      guard namesStart + 4 <= namesEnd else { return nil }
      let count = Int(Frame.readLE(bytes, at: namesEnd - 4))
      guard namesStart + count * Self.nameBytes + 4 == namesEnd else { return nil }
      names = count
    }
    self.file = file
    // Every offset checked once, so a sidecar whose checksum happens to
    // hold cannot send a read outside the text or the snapshot.
    let text = header[6]
    for name in 0..<(names ?? 0) {
      let at = namesStart + name * Self.nameBytes
      guard u32(at) + u32(at + 4) <= text, u32(at + 8) + u32(at + 12) <= text else { return nil }
    }
    for membership in 0..<(memberships ?? 0) {
      let at = membershipsStart + membership * Self.membershipBytes
      guard u32(at) + u32(at + 4) <= text, u32(at + 8) + u32(at + 12) <= text else { return nil }
    }
    for title in 0..<(titles ?? 0) {
      let at = titlesStart + title * Self.titleBytes
      guard u32(at) + u32(at + 4) <= text, u32(at + 8) + u32(at + 12) <= text, u32(at + 16) <= 1 else { return nil }
    }
    for listing in 0..<(listings ?? 0) {
      let at = listingsStart + listing * Self.listingBytes
      guard u32(at) + u32(at + 4) <= text else { return nil }
    }
    for frame in 0..<frames where !(FileHeader.size + Frame.headerSize...snapshotBytes).contains(self.frame(frame).lowerBound)
      || self.frame(frame).upperBound > snapshotBytes
    {
      return nil
    }
    for entry in 0..<entries {
      let at = entriesStart + entry * Self.entryBytes
      guard u32(at) + u32(at + 4) <= text, u32(at + 8) < frames, u32(at + 12) < self.frame(u32(at + 8)).count else { return nil }
    }
    for spot in 0..<spots {
      let at = spotsStart + spot * Self.spotBytes
      guard u32(at) + u32(at + 4) <= text, u32(at + 12) == Int(Self.noPlace) || u32(at + 8) + u32(at + 12) <= text else { return nil }
    }
  }

  private func u32(_ offset: Int) -> Int { Int(Frame.readLE(bytes, at: offset)) }

  private enum Section {
    case absent, malformed
    case present(start: Int, count: Int)
  }

  /// The section of `entryBytes`-byte entries that ends at `end` with its
  /// count and `mark` (none when the mark is not there), not reaching
  /// below `floor`; one that must come after a section ending with
  /// `previous` is malformed without it.
  private static func section(
    _ bytes: UnsafeRawBufferPointer, end: Int, floor: Int, mark: UInt32, entryBytes: Int, after previous: UInt32?
  ) -> Section {
    guard floor + 8 <= end, Frame.readLE(bytes, at: end - 4) == mark else { return .absent }
    let count = Int(Frame.readLE(bytes, at: end - 8))
    guard count <= (end - 8 - floor) / entryBytes else { return .malformed }
    let start = end - 8 - count * entryBytes
    if let previous, !(floor + 8 <= start && Frame.readLE(bytes, at: start - 4) == previous) { return .malformed }
    return .present(start: start, count: count)
  }

  private func f64(_ offset: Int) -> Double {
    Double(bitPattern: UInt64(Frame.readLE(bytes, at: offset)) | UInt64(Frame.readLE(bytes, at: offset + 4)) << 32)
  }

  private func text(_ start: Int, _ length: Int) -> UnsafeRawBufferPointer.SubSequence { bytes[(textStart + start)..<(textStart + start + length)] }

  /// Where frame `index`'s payload lies in the snapshot.
  func frame(_ index: Int) -> Range<Int> {
    let at = Self.fixedBytes + index * Self.frameBytes
    return u32(at)..<(u32(at) + u32(at + 4))
  }

  /// Entry `index`'s owner, frame and start in the frame's payload.
  func entry(_ index: Int) -> (owner: UnsafeRawBufferPointer.SubSequence, frame: Int, offset: Int) {
    let at = entriesStart + index * Self.entryBytes
    return (text(u32(at), u32(at + 4)), u32(at + 8), u32(at + 12))
  }

  /// The entries whose owner is `owner` (a range of the sorted entries).
  func entries(of owner: [UInt8]) -> Range<Int> {
    owner.withUnsafeBytes { owner in
      let first = partition { compare($0, owner, prefixOnly: false) >= 0 }
      // An owner has a few records (a place, its tags and list entries):
      // stepping over them costs less than a second search.
      var end = first
      while end < entries, compare(end, owner, prefixOnly: false) == 0 { end += 1 }
      return first..<end
    }
  }

  /// The entries whose owner starts with `prefix`.
  func entries(startingWith prefix: [UInt8]) -> Range<Int> {
    prefix.withUnsafeBytes { prefix in
      let first = partition { compare($0, prefix, prefixOnly: false) >= 0 }
      return first..<max(first, partition { compare($0, prefix, prefixOnly: true) > 0 })
    }
  }

  /// How entry `index`'s owner sorts against `key` by bytes (−1, 0, 1);
  /// with `prefixOnly`, only its first `key.count` bytes are compared.
  /// memcmp: comparing byte slices as sequences made finding 30,000
  /// owners a tenth of listing every task.
  private func compare(_ index: Int, _ key: UnsafeRawBufferPointer, prefixOnly: Bool) -> Int {
    let at = entriesStart + index * Self.entryBytes
    let (start, length) = (textStart + u32(at), u32(at + 4))
    let common = min(length, key.count)
    let order = common == 0 ? 0 : memcmp(bytes.baseAddress! + start, key.baseAddress!, common)
    if order != 0 { return order < 0 ? -1 : 1 }
    if prefixOnly, length >= key.count { return 0 }
    return length < key.count ? -1 : length > key.count ? 1 : 0
  }

  /// The first entry `isPast` holds for (false for all before it, true from it on).
  private func partition(_ isPast: (Int) -> Bool) -> Int {
    var (low, high) = (0, entries)
    while low < high {
      let middle = (low + high) / 2
      if isPast(middle) { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// Spot `index`'s box (nil: its location has no coordinate).
  func spotBox(_ index: Int) -> CircleBox? {
    let at = spotsStart + index * Self.spotBytes + 16
    let values = (0..<4).map { f64(at + 8 * $0) }
    guard !values.contains(where: \.isNaN) else { return nil }
    return CircleBox(minLatitude: values[0], maxLatitude: values[1], minLongitude: values[2], maxLongitude: values[3])
  }

  /// Name `index`'s place id and the place's name.
  func name(_ index: Int) -> (id: String, name: String) {
    let (id, name) = nameBytes(index)
    return (String(decoding: id, as: UTF8.self), String(decoding: name, as: UTF8.self))
  }

  /// Name `index`'s place id and name as their UTF-8 where the sidecar
  /// holds them (valid while it is open).
  func nameBytes(_ index: Int) -> (id: UnsafeRawBufferPointer, name: UnsafeRawBufferPointer) {
    let at = namesStart + index * Self.nameBytes
    return (UnsafeRawBufferPointer(rebasing: text(u32(at), u32(at + 4))), UnsafeRawBufferPointer(rebasing: text(u32(at + 8), u32(at + 12))))
  }

  /// Title `index`'s task id, the task's title and whether it is completed.
  func title(_ index: Int) -> (id: String, title: String, completed: Bool) {
    let at = titlesStart + index * Self.titleBytes
    return (
      String(decoding: text(u32(at), u32(at + 4)), as: UTF8.self), String(decoding: text(u32(at + 8), u32(at + 12)), as: UTF8.self),
      u32(at + 16) == 1
    )
  }

  /// Listing `index`'s bytes (`TaskListing.encoded`).
  func listing(_ index: Int) -> UnsafeRawBufferPointer {
    let at = listingsStart + index * Self.listingBytes
    return UnsafeRawBufferPointer(rebasing: text(u32(at), u32(at + 4)))
  }

  /// The ids of the places the snapshot holds in `list` (a range of the
  /// memberships, sorted by list id); nil from a sidecar from before them.
  func places(inList list: String) -> [String]? {
    guard let count = memberships else { return nil }
    let key = Array(list.utf8)
    func listID(_ index: Int) -> UnsafeRawBufferPointer.SubSequence {
      let at = membershipsStart + index * Self.membershipBytes
      return text(u32(at), u32(at + 4))
    }
    var (low, high) = (0, count)
    while low < high {
      let middle = (low + high) / 2
      if listID(middle).lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
    }
    var places: [String] = []
    while low < count, listID(low).elementsEqual(key) {
      let at = membershipsStart + low * Self.membershipBytes
      places.append(String(decoding: text(u32(at + 8), u32(at + 12)), as: UTF8.self))
      low += 1
    }
    return places
  }

  /// How many places the snapshot holds in each list, by list id; nil
  /// from a sidecar from before memberships.
  func listCounts() -> [String: Int]? {
    guard let count = memberships else { return nil }
    var counts: [String: Int] = [:]
    var run: (list: UnsafeRawBufferPointer.SubSequence, count: Int)?
    for index in 0..<count {
      let at = membershipsStart + index * Self.membershipBytes
      let list = text(u32(at), u32(at + 4))
      if let current = run, current.list.elementsEqual(list) {
        run?.count += 1
        continue
      }
      if let done = run { counts[String(decoding: done.list, as: UTF8.self), default: 0] += done.count }
      run = (list, 1)
    }
    if let done = run { counts[String(decoding: done.list, as: UTF8.self), default: 0] += done.count }
    return counts
  }

  /// Spot `index`'s task, as its owner key (`task/ID`).
  func spotTask(_ index: Int) -> String {
    let at = spotsStart + index * Self.spotBytes
    return String(decoding: text(u32(at), u32(at + 4)), as: UTF8.self)
  }

  /// Spot `index`'s place id (nil: tied to a coordinate).
  func spotPlace(_ index: Int) -> String? {
    let at = spotsStart + index * Self.spotBytes
    return u32(at + 12) == Int(Self.noPlace) ? nil : String(decoding: text(u32(at + 8), u32(at + 12)), as: UTF8.self)
  }
}

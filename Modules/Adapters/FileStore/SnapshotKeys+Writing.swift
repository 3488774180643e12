import Domain
import Foundation
import Persistence

/// Writing a sidecar (`SnapshotKeys` reads one; its layout is described there).
extension SnapshotKeys {
  /// The sidecar's bytes for a snapshot of `snapshotBytes` bytes with
  /// checksum `snapshotCRC` whose frames hold `frames`' records (each with
  /// its payload's start in the file and each record's start in its
  /// payload), `state` what it holds.
  static func encode(
    snapshotBytes: Int, snapshotCRC: UInt32, frames: [(payloadStart: Int, length: Int, records: [OperationRecord], offsets: [Int])],
    state: StoreState
  ) -> [UInt8] {
    var entries: [(owner: [UInt8], frame: UInt32, offset: UInt32)] = []
    entries.reserveCapacity(frames.reduce(0) { $0 + $1.records.count })
    for (index, frame) in frames.enumerated() {
      for (record, offset) in zip(frame.records, frame.offsets) {
        entries.append((Array(record.operation.key.owner.description.utf8), UInt32(index), UInt32(offset)))
      }
    }
    // By the owner's bytes (the order the reader's memcmp searches), one
    // owner's records in file order (frame, then offset).
    entries.sort { a, b in
      let common = min(a.owner.count, b.owner.count)
      let order = common == 0 ? 0 : a.owner.withUnsafeBytes { x in b.owner.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, common) } }
      if order != 0 { return order < 0 }
      if a.owner.count != b.owner.count { return a.owner.count < b.owner.count }
      return (a.frame, a.offset) < (b.frame, b.offset)
    }
    let spots = state.tasks.keys.sorted().flatMap { state.spots(of: $0) }
    var out = FileHeader.bytes(kind: kind)
    out.reserveCapacity(fixedBytes + frames.count * frameBytes + entries.count * (entryBytes + 24) + spots.count * (spotBytes + 32) + state.places.count * (nameBytes + 24) + 4)
    var text: [UInt8] = []
    func u32(_ value: Int) { Frame.appendLE(UInt32(truncatingIfNeeded: value), to: &out) }
    func f64(_ value: Double) {
      u32(Int(value.bitPattern & 0xFFFF_FFFF))
      u32(Int(value.bitPattern >> 32))
    }
    /// Where `bytes` start in the text, appended now.
    func put(_ bytes: some Collection<UInt8>) -> Int {
      text.append(contentsOf: bytes)
      return text.count - bytes.count
    }
    for value in [snapshotBytes & 0xFFFF_FFFF, snapshotBytes >> 32, Int(snapshotCRC), frames.count, entries.count, spots.count] { u32(value) }
    let textCountAt = out.count
    u32(0)  // the text's length, known at the end
    for frame in frames {
      u32(frame.payloadStart)
      u32(frame.length)
    }
    var previous: (owner: [UInt8], start: Int)?
    // Where each place's id is in the text: its owner key's, past `place/`.
    let placePrefix = Array("place/".utf8), taskPrefix = Array("task/".utf8)
    var placeIDs: [String: Int] = [:], taskIDs: [String: Int] = [:]
    for entry in entries {
      // One owner's records are together: its name is written once.
      let start = previous.map { $0.owner == entry.owner } == true ? previous!.start : put(entry.owner)
      if previous?.start != start, entry.owner.starts(with: placePrefix) {
        placeIDs[String(decoding: entry.owner.dropFirst(placePrefix.count), as: UTF8.self)] = start + placePrefix.count
      } else if previous?.start != start, entry.owner.starts(with: taskPrefix) {
        taskIDs[String(decoding: entry.owner.dropFirst(taskPrefix.count), as: UTF8.self)] = start + taskPrefix.count
      }
      previous = (entry.owner, start)
      u32(start)
      u32(entry.owner.count)
      u32(Int(entry.frame))
      u32(Int(entry.offset))
    }
    for spot in spots {
      let task = Array("task/\(spot.task.rawValue)".utf8)
      u32(put(task))
      u32(task.count)
      if let id = spot.place {
        u32(put(id.rawValue.utf8))
        u32(id.rawValue.utf8.count)
      } else {
        u32(0)
        u32(Int(noPlace))
      }
      for value in [spot.box?.minLatitude, spot.box?.maxLatitude, spot.box?.minLongitude, spot.box?.maxLongitude] { f64(value ?? .nan) }
    }
    var names: [(id: Int, idCount: Int, name: Int, nameCount: Int)] = []
    names.reserveCapacity(state.places.count)
    for (id, place) in state.places.sorted(by: { $0.key < $1.key }) {
      let idBytes = id.rawValue.utf8
      names.append((placeIDs[id.rawValue] ?? put(idBytes), idBytes.count, put(place.name.utf8), place.name.utf8.count))
    }
    var listIDs: [String: Int] = [:]
    // By the list id's bytes, the order the reader's search compares in.
    let memberships = state.memberships.map { (list: Array($0.list.rawValue.utf8), membership: $0) }.sorted { a, b in
      a.list != b.list ? a.list.lexicographicallyPrecedes(b.list) : a.membership.place.rawValue < b.membership.place.rawValue
    }.map(\.membership).map { membership in
      let list = membership.list.rawValue, place = membership.place.rawValue
      let listStart = listIDs[list] ?? put(list.utf8)
      listIDs[list] = listStart
      return (listStart, list.utf8.count, placeIDs[place] ?? put(place.utf8), place.utf8.count)
    }
    // A task's id is in the text already, as its owner key's tail.
    let titles = state.tasks.sorted(by: { $0.key < $1.key }).map { id, task in
      (taskIDs[id.rawValue] ?? put(id.rawValue.utf8), id.rawValue.utf8.count, put(task.title.utf8), task.title.utf8.count, task.state.isCompleted ? 1 : 0)
    }
    let listings = state.tasks.keys.sorted().compactMap(state.listing(of:)).map { listing in
      let bytes = listing.encoded
      return (put(bytes), bytes.count)
    }
    let textCount = UInt32(text.count)
    for shift in 0..<4 { out[textCountAt + shift] = UInt8(truncatingIfNeeded: textCount >> (8 * UInt32(shift))) }
    out += text
    for name in names {
      for value in [name.id, name.idCount, name.name, name.nameCount] { u32(value) }
    }
    u32(names.count)
    for membership in memberships {
      for value in [membership.0, membership.1, membership.2, membership.3] { u32(value) }
    }
    u32(memberships.count)
    u32(Int(membershipsMark))
    for title in titles {
      for value in [title.0, title.1, title.2, title.3, title.4] { u32(value) }
    }
    u32(titles.count)
    u32(Int(titlesMark))
    for listing in listings {
      u32(listing.0)
      u32(listing.1)
    }
    u32(listings.count)
    u32(Int(listingsMark))
    Frame.appendLE(CRC32.checksum(out), to: &out)
    return out
  }
}

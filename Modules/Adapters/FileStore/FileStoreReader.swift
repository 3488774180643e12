import Domain
import Foundation
import Persistence

/// One look at a store directory that reads only what a question names:
/// the manifest, the log after the snapshot (decoded whole, checked as an
/// open checks it), and the snapshot mapped, its records found through
/// its sidecar (`SnapshotKeys`) and decoded one by one, each frame's own
/// checksum checked before anything in it is used. Read-only, takes no
/// lock; a compaction meanwhile is seen as a changed manifest. nil from
/// `load` when there is no sidecar to use (a store compacted before
/// sidecars): the caller reads everything. Damage in frames no question
/// touches is found by what reads everything (`doctor`, any write).
struct FileStoreReader {
  /// nil for a directory that holds no store yet (read as empty).
  private(set) var manifest: StoreManifest?
  /// The log's length when read: a longer log means others wrote since.
  private(set) var logSize: Int
  /// The CRC-32 of the log's first `logSize` bytes and how many records they hold.
  private(set) var logCRC: UInt32
  private(set) var logRecords: Int
  /// The newest stamp in the log's records.
  private(set) var logLatest: HLCTimestamp?
  private let snapshot: MappedFile?
  private let snapshotPath: String
  private let keys: SnapshotKeys?
  /// The log's records by owner, and the tasks and places it touched.
  private var tail: [String: [OperationRecord]]
  private var tailTasks: Set<String>
  private var tailPlaces: Set<String>
  /// The places the log put in or took out of each list, by list id.
  private var tailLists: [String: Set<String>] = [:]

  static func load(directory: String) throws -> FileStoreReader? {
    // A compaction between reading the manifest and its files is seen as
    // parts gone missing; the newer manifest is read and the look taken again.
    for attempt in 1...5 {
      guard let manifest = try StoreManifest.read(directory: directory) else {
        // No store yet reads as empty; one from before manifests is read whole.
        guard !PosixFile.exists(directory + "/log"), !PosixFile.exists(directory + "/snapshot") else { return nil }
        return FileStoreReader(
          manifest: nil, logSize: 0, logCRC: 0, logRecords: 0, logLatest: nil, snapshot: nil, snapshotPath: "", keys: nil, tail: [:], tailTasks: [],
          tailPlaces: [])
      }
      let snapshot = try manifest.snapshot.flatMap { try MappedFile(directory + "/" + $0.file) }
      // The snapshot is checked here by its length and header; its frames as they are read.
      var withoutSnapshot = manifest
      withoutSnapshot.snapshot = nil
      let parts = try StoreFiles.Parts.read(directory: directory, manifest: withoutSnapshot)
      let missing = parts.missing || (manifest.snapshot != nil && snapshot == nil)
      if missing, attempt < 5, try StoreManifest.read(directory: directory) != manifest { continue }
      return try load(directory: directory, manifest: manifest, snapshot: snapshot, parts: parts)
    }
    return nil
  }

  private static func load(directory: String, manifest: StoreManifest, snapshot: MappedFile?, parts: StoreFiles.Parts) throws -> FileStoreReader? {
    var withoutSnapshot = manifest
    withoutSnapshot.snapshot = nil
    try StoreLoss.checkVersions(directory: directory, withoutSnapshot, parts)
    var losses = StoreLoss.check(withoutSnapshot, parts)
    var keys: SnapshotKeys?
    if let part = manifest.snapshot {
      let held = "it held \(StoreLoss.holding(part)) in \(part.bytes) bytes"
      if let snapshot {
        // A newer build's file is refused by its version before anything else is said of it.
        if snapshot.bytes.count >= FileHeader.size, FileHeader.isOwn(Array(snapshot.bytes.prefix(FileHeader.size))),
          FileHeader.version(of: Array(snapshot.bytes.prefix(FileHeader.size))) > FileHeader.version
        {
          throw StoreError.unsupportedVersion(
            path: directory + "/" + part.file, found: Int(FileHeader.version(of: Array(snapshot.bytes.prefix(FileHeader.size)))))
        }
        if snapshot.bytes.count != part.bytes {
          losses.append("the snapshot \(part.file) is \(snapshot.bytes.count) bytes, not the \(part.bytes) written; \(held)")
        } else {
          try FileHeader.check(snapshot.bytes, kind: StoreFiles.snapshotKind, path: directory + "/" + part.file)
        }
      } else {
        losses.append("the snapshot \(part.file) is missing; \(held)")
      }
      guard losses.isEmpty else { throw StoreError.incomplete(directory: directory, losses: losses) }
      keys = try MappedFile(directory + "/" + SnapshotKeys.fileName(manifest.generation)).flatMap {
        SnapshotKeys($0, snapshotBytes: part.bytes, snapshotCRC: part.crc)
      }
      guard keys != nil else { return nil }
    }
    guard losses.isEmpty else { throw StoreError.incomplete(directory: directory, losses: losses) }
    var reader = FileStoreReader(
      manifest: manifest, logSize: 0, logCRC: 0, logRecords: 0, logLatest: nil, snapshot: snapshot,
      snapshotPath: directory + "/" + (manifest.snapshot?.file ?? "snapshot"), keys: keys, tail: [:], tailTasks: [], tailPlaces: [])
    let log = parts.log ?? []
    let scan = try StoreFiles.scanLog(log, path: directory + "/" + manifest.log.file) { reader.take($0) }
    let contents = StoreLoss.checkContents(withoutSnapshot, parts)
    guard contents.isEmpty else { throw StoreError.incomplete(directory: directory, losses: contents) }
    // The manifest's checksum of the log's first bytes was just checked: the rest continues it.
    let checked = manifest.log.bytes <= scan.validEnd ? manifest.log.bytes : 0
    reader.logCRC = log.withUnsafeBytes {
      CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[checked..<scan.validEnd]), continuing: checked > 0 ? manifest.log.crc : 0)
    }
    reader.logSize = scan.validEnd
    reader.logRecords = scan.records
    return reader
  }

  /// Adds records read from (or appended to) the log to this look's tail.
  private mutating func take(_ records: [OperationRecord]) {
    for record in records {
      if logLatest.map({ record.stamp > $0 }) ?? true { logLatest = record.stamp }
      let owner = record.operation.key.owner
      tail[owner.description, default: []].append(record)
      switch owner {
      case .task(let id): tailTasks.insert(id.rawValue)
      case .place(let id): tailPlaces.insert(id.rawValue)
      default: break
      }
      if case .membership(let membership) = record.operation.key { tailLists[membership.list.rawValue, default: []].insert(membership.place.rawValue) }
    }
  }

  /// This look once `frame`, holding `records`, is appended to the log,
  /// with the manifest's log line recording it (the writer writes it):
  /// what a writer keeps instead of reading the store again.
  mutating func append(_ records: [OperationRecord], frame: [UInt8]) {
    take(records)
    logSize += frame.count
    logCRC = CRC32.checksum(frame, continuing: logCRC)
    logRecords += records.count
    manifest?.log.bytes = logSize
    manifest?.log.crc = logCRC
    manifest?.log.records = logRecords
  }

  /// The newest stamp in the store: the snapshot's (as its manifest line
  /// says) and the log's. nil when the manifest does not say the
  /// snapshot's (written before it did): only a whole read knows then.
  var latest: HLCTimestamp?? {
    guard let manifest else { return .some(nil) }
    guard let snapshot = manifest.snapshot else { return .some(logLatest) }
    guard let stamp = snapshot.latest else { return nil }
    return .some(max(stamp, logLatest ?? stamp))
  }

  /// What the store holds for `keys` (`PartialReading.state(of:)`).
  func state(of keys: Set<EntityKey>) throws -> StoreState { StoreState(applying: try records(of: keys)) }

  /// Every record kept for these owners: the snapshot's, then the log's.
  func records(of keys: Set<EntityKey>) throws -> [OperationRecord] {
    var records: [OperationRecord] = []
    records.reserveCapacity(keys.count)
    var checked: Set<Int> = []
    var owners = Set<EntityKey>(minimumCapacity: keys.count)
    for key in keys { owners.insert(key.owner) }
    for owner in owners {
      // The owner's name once: the sidecar and the log's tail are keyed by it.
      let name = owner.description
      if let index = self.keys, let snapshot {
        for number in index.entries(of: Array(name.utf8)) {
          let entry = index.entry(number)
          let payload = try frame(entry.frame, of: index, in: snapshot.bytes, checked: &checked)
          let record = try RecordCodec.decode(
            UnsafeRawBufferPointer(rebasing: snapshot.bytes[payload]), at: entry.offset, path: snapshotPath, offset: payload.lowerBound - Frame.headerSize)
          guard record.operation.key.owner == owner else {
            throw StoreError.corrupt(
              path: snapshotPath, offset: UInt64(payload.lowerBound - Frame.headerSize),
              reason: "its sidecar names a record of \(record.operation.key.owner) as one of \(owner) (whilehere store compact writes both again)")
          }
          records.append(record)
        }
      }
      if let logged = tail[name] { records += logged }
    }
    return records
  }

  /// Frame `number`'s payload, its checksum checked the first time it is read.
  private func frame(_ number: Int, of index: SnapshotKeys, in bytes: UnsafeRawBufferPointer, checked: inout Set<Int>) throws -> Range<Int> {
    let payload = index.frame(number)
    guard payload.lowerBound >= FileHeader.size + Frame.headerSize, payload.upperBound <= bytes.count else {
      throw StoreError.corrupt(path: snapshotPath, offset: UInt64(bytes.count), reason: "its sidecar names bytes past its end")
    }
    if checked.insert(number).inserted {
      switch FrameScan.check(bytes, at: payload.lowerBound - Frame.headerSize) {
      case .success(let found) where found == payload: break
      case .success:
        throw StoreError.corrupt(path: snapshotPath, offset: UInt64(payload.lowerBound - Frame.headerSize), reason: "its sidecar does not match its frames")
      case .failure(let problem):
        throw StoreError.corrupt(path: snapshotPath, offset: UInt64(payload.lowerBound - Frame.headerSize), reason: problem.reason)
      }
    }
    return payload
  }

  /// Every task with a record, deleted ones too.
  func taskKeys() -> Set<EntityKey> {
    var keys = Set(tailTasks.map { EntityKey.task(TaskID($0)) })
    keys.formUnion(snapshotKeys(owner: "task/", startingWith: "") { .task(TaskID($0)) })
    return keys
  }

  /// Every list with a record, deleted ones too.
  func listKeys() -> Set<EntityKey> { keys(owner: "list/", startingWith: "") { .list(ListID($0)) } }

  /// Every setting whose key starts with `prefix` with a record, deleted ones too.
  func settingKeys(startingWith prefix: String) -> Set<EntityKey> { keys(owner: "setting/", startingWith: prefix) { .setting($0) } }

  /// The keys of the snapshot's records and the log's whose owner is
  /// `kind` followed by a name starting with `prefix`, made from that name.
  private func keys(owner kind: String, startingWith prefix: String, _ make: (String) -> EntityKey) -> Set<EntityKey> {
    var keys = snapshotKeys(owner: kind, startingWith: prefix, make)
    for owner in tail.keys where owner.hasPrefix(kind + prefix) { keys.insert(make(String(owner.dropFirst(kind.count)))) }
    return keys
  }

  /// The keys of the snapshot's records whose owner is `kind` (`task/`)
  /// followed by a name starting with `prefix`, made from that name.
  private func snapshotKeys(owner kind: String, startingWith prefix: String, _ make: (String) -> EntityKey) -> Set<EntityKey> {
    guard let index = keys else { return [] }
    var found: Set<EntityKey> = []
    let kindBytes = kind.utf8.count
    for entry in index.entries(startingWith: Array((kind + prefix).utf8)) {
      found.insert(make(String(decoding: index.entry(entry).owner.dropFirst(kindBytes), as: UTF8.self)))
    }
    return found
  }

  /// Every place held and its name: the sidecar's names of the snapshot's
  /// places, less those the log touched, which are read with their
  /// records. nil when the sidecar is from before names.
  func placeNames() throws -> [(id: PlaceID, name: String)]? {
    var names: [(id: PlaceID, name: String)] = []
    if let index = keys {
      guard let count = index.names else { return nil }
      names.reserveCapacity(count + tailPlaces.count)
      for number in 0..<count {
        let (id, name) = index.name(number)
        if tailPlaces.isEmpty || !tailPlaces.contains(id) { names.append((PlaceID(id), name)) }
      }
    }
    guard !tailPlaces.isEmpty else { return names }
    var touched = StoreState()
    touched.apply(contentsOf: try records(of: Set(tailPlaces.map { EntityKey.place(PlaceID($0)) })))
    return names + touched.placeNames
  }

  /// The places whose folded name starts with `folded` or whose id starts
  /// with `idPrefix` (compared as bytes: a few more may come), with their
  /// names, as `PartialReading` says: the sidecar's names compared where
  /// they lie, folding only those that are not ASCII, and the places the
  /// log touched from their records. nil when `folded` is not ASCII or
  /// the sidecar is from before names.
  func placeNames(startingWith folded: String, idPrefix: String?) throws -> [(id: PlaceID, name: String)]? {
    guard folded.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    let idStart = idPrefix.map { Array($0.utf8) }
    func starts(_ name: String) -> Bool { SearchText.fold(name).utf8.starts(with: folded.utf8) }
    var names: [(id: PlaceID, name: String)] = []
    if let index = keys {
      guard let count = index.names else { return nil }
      for number in 0..<count {
        let (id, name) = index.nameBytes(number)
        let byName = SearchText.folded(name, startsWith: folded.utf8) ?? starts(String(decoding: name, as: UTF8.self))
        guard byName || idStart.map(id.starts) ?? false else { continue }
        let place = String(decoding: id, as: UTF8.self)
        if tailPlaces.isEmpty || !tailPlaces.contains(place) { names.append((PlaceID(place), String(decoding: name, as: UTF8.self))) }
      }
    }
    guard !tailPlaces.isEmpty else { return names }
    var touched = StoreState()
    touched.apply(contentsOf: try records(of: Set(tailPlaces.map { EntityKey.place(PlaceID($0)) })))
    return names + touched.placeNames.filter { place in starts(place.name) || idStart.map { place.id.rawValue.utf8.starts(with: $0) } ?? false }
  }

  /// Every task held, its title and whether it is done: the sidecar's
  /// titles of the snapshot's tasks, less those the log touched, which are
  /// read with their records. nil when the sidecar is from before titles.
  func taskTitles() throws -> [TaskTitle]? {
    var titles: [TaskTitle] = []
    if let index = keys {
      guard let count = index.titles else { return nil }
      titles.reserveCapacity(count + tailTasks.count)
      for number in 0..<count {
        let (id, title, completed) = index.title(number)
        if tailTasks.isEmpty || !tailTasks.contains(id) { titles.append(TaskTitle(id: TaskID(id), title: title, completed: completed)) }
      }
    }
    guard !tailTasks.isEmpty else { return titles }
    return titles + StoreState(applying: try records(of: Set(tailTasks.map { EntityKey.task(TaskID($0)) }))).taskTitles
  }

  /// Every task held as a listing shows it: the sidecar's listings of the
  /// snapshot's tasks, less those the log touched or whose place it
  /// touched, which are made from their records and their places'. From
  /// a sidecar from before listings, every task's is made so; nil when
  /// one does not decode (the sidecar is not to be trusted).
  func taskListings() throws -> TaskListingTable? {
    var table = TaskListingTable()
    var again = Set(tailTasks.map { EntityKey.task(TaskID($0)) })
    if let index = keys {
      guard let count = index.listings else { return TaskListingTable(try listings(madeFrom: taskKeys())) }
      for number in 0..<count {
        // A sidecar only speeds reading: one whose listing does not decode is not used.
        guard let view = try? TaskListingView(index.listing(number)) else { return nil }
        if !tailTasks.isEmpty, tailTasks.contains(String(decoding: view.id, as: UTF8.self)) { continue }
        if !tailPlaces.isEmpty {
          var touched = false
          try view.forEachLocation { location in
            if let place = location.place, tailPlaces.contains(String(decoding: place, as: UTF8.self)) { touched = true }
          }
          if touched {
            again.insert(.task(TaskID(String(decoding: view.id, as: UTF8.self))))
            continue
          }
        }
        table.append(view)
      }
    }
    if !again.isEmpty {
      for listing in try listings(madeFrom: again) { table.append(listing) }
    }
    return table
  }

  /// The listings of `tasks`, made from their records and their places'.
  private func listings(madeFrom tasks: Set<EntityKey>) throws -> [TaskListing] {
    var state = StoreState(applying: try records(of: tasks))
    state.apply(contentsOf: try records(of: state.placeKeys))
    return state.taskListings
  }

  /// The places the snapshot holds in `list`, and every place the log put
  /// in it or took out: more than the list holds, never fewer. nil when
  /// the sidecar is from before memberships.
  func places(inList list: ListID) -> Set<PlaceID>? {
    var found = Set((tailLists[list.rawValue] ?? []).map { PlaceID($0) })
    guard let index = keys else { return found }
    guard let held = index.places(inList: list.rawValue) else { return nil }
    found.formUnion(held.map { PlaceID($0) })
    return found
  }

  /// How many places each list holds: the snapshot's counts, corrected
  /// for every place the log put in or took out of a list (read from its
  /// records). nil when the sidecar is from before memberships.
  func listCounts() throws -> [ListID: Int]? {
    var counts: [ListID: Int] = [:]
    if let index = keys {
      guard let held = index.listCounts() else { return nil }
      for (list, count) in held { counts[ListID(list)] = count }
    }
    guard !tailLists.isEmpty else { return counts }
    let places = Set(tailLists.values.joined().map { EntityKey.place(PlaceID($0)) })
    let now = StoreState(applying: try records(of: places))
    for (list, places) in tailLists {
      let snapshot = Set(keys?.places(inList: list) ?? [])
      for place in places {
        let held = now.memberships.contains(Membership(list: ListID(list), place: PlaceID(place)))
        counts[ListID(list), default: 0] += (held ? 1 : 0) - (snapshot.contains(place) ? 1 : 0)
      }
    }
    return counts
  }

  /// The tasks whose box at the snapshot holds `point`, and every task the
  /// log touched or whose place it touched (their boxes may have moved):
  /// more than the circles hold, never fewer.
  func tasks(near point: Coordinate) -> Set<TaskID> {
    var found = Set(tailTasks.map { TaskID($0) })
    guard let index = keys else { return found }
    for spot in 0..<index.spots {
      if index.spotBox(spot)?.contains(point) == true || (!tailPlaces.isEmpty && index.spotPlace(spot).map(tailPlaces.contains) == true) {
        found.insert(TaskID(String(index.spotTask(spot).dropFirst("task/".count))))
      }
    }
    return found
  }
}

import Domain
import Foundation
import Persistence

/// One look at a store directory that reads only what a question names:
/// the files the manifest lists, checked as an open checks them (lengths,
/// checksums, versions), the snapshot's records found through its sidecar
/// (`SnapshotKeys`) and decoded one by one, the log after it decoded whole.
/// Read-only, takes no lock; a compaction meanwhile is seen as a changed
/// manifest. nil from `load` when there is no sidecar to use (a store
/// compacted before sidecars, or none yet): the caller reads everything.
struct FileStoreReader {
  /// nil for a directory that holds no store yet (read as empty).
  let manifest: StoreManifest?
  /// The log's length when read: a longer log means others wrote since.
  let logSize: Int
  private let snapshot: [UInt8]
  private let snapshotPath: String
  private let keys: SnapshotKeys?
  /// The log's records by owner, and the tasks and places it touched.
  private let tail: [String: [OperationRecord]]
  private let tailTasks: Set<String>
  private let tailPlaces: Set<String>

  static func load(directory: String) throws -> FileStoreReader? {
    // A compaction between reading the manifest and its files is seen as
    // parts gone missing; the newer manifest is read and the look taken again.
    for attempt in 1...5 {
      guard let manifest = try StoreManifest.read(directory: directory) else {
        // No store yet reads as empty; one from before manifests is read whole.
        guard !PosixFile.exists(directory + "/log"), !PosixFile.exists(directory + "/snapshot") else { return nil }
        return FileStoreReader(manifest: nil, logSize: 0, snapshot: [], snapshotPath: "", keys: nil, tail: [:], tailTasks: [], tailPlaces: [])
      }
      let parts = try StoreFiles.Parts.read(directory: directory, manifest: manifest)
      if parts.missing, attempt < 5, try StoreManifest.read(directory: directory) != manifest { continue }
      return try load(directory: directory, manifest: manifest, parts: parts)
    }
    return nil
  }

  private static func load(directory: String, manifest: StoreManifest, parts: StoreFiles.Parts) throws -> FileStoreReader? {
    try StoreLoss.checkVersions(directory: directory, manifest, parts)
    let losses = StoreLoss.check(manifest, parts)
    guard losses.isEmpty else { throw StoreError.incomplete(directory: directory, losses: losses) }
    var keys: SnapshotKeys?
    if let part = manifest.snapshot {
      let file = try PosixFile.readAll(directory + "/" + SnapshotKeys.fileName(manifest.generation))
      keys = file.flatMap { SnapshotKeys($0, snapshotBytes: part.bytes, snapshotCRC: part.crc) }
      guard keys != nil else { return nil }
      // The snapshot's frames are not scanned: its checksum below vouches for every byte.
      try parts.snapshot?.withUnsafeBytes { try FileHeader.check($0, kind: StoreFiles.snapshotKind, path: directory + "/" + part.file) }
    }
    var tail: [String: [OperationRecord]] = [:]
    var tasks: Set<String> = []
    var places: Set<String> = []
    let log = parts.log ?? []
    let scan = try StoreFiles.scanLog(log, path: directory + "/" + manifest.log.file) { records in
      for record in records {
        let owner = record.operation.key.owner
        tail[owner.description, default: []].append(record)
        switch owner {
        case .task(let id): tasks.insert(id.rawValue)
        case .place(let id): places.insert(id.rawValue)
        default: break
        }
      }
    }
    let contents = StoreLoss.checkContents(manifest, parts)
    guard contents.isEmpty else { throw StoreError.incomplete(directory: directory, losses: contents) }
    return FileStoreReader(
      manifest: manifest, logSize: scan.validEnd, snapshot: parts.snapshot ?? [],
      snapshotPath: directory + "/" + (manifest.snapshot?.file ?? "snapshot"), keys: keys, tail: tail, tailTasks: tasks,
      tailPlaces: places)
  }

  /// Every record kept for these owners: the snapshot's, then the log's.
  func records(of keys: Set<EntityKey>) throws -> [OperationRecord] {
    var records: [OperationRecord] = []
    for owner in Set(keys.map(\.owner.description)) {
      if let index = self.keys {
        for entry in index.entries(of: Array(owner.utf8)) { records.append(try record(index.entry(entry), in: index)) }
      }
      records += tail[owner] ?? []
    }
    return records
  }

  private func record(_ entry: (owner: ArraySlice<UInt8>, frame: Int, offset: Int), in index: SnapshotKeys) throws -> OperationRecord {
    let payload = index.frame(entry.frame)
    guard payload.upperBound <= snapshot.count else {
      throw StoreError.corrupt(path: snapshotPath, offset: UInt64(payload.lowerBound), reason: "the sidecar names bytes past the snapshot's end")
    }
    return try snapshot.withUnsafeBytes { buffer in
      try RecordCodec.decode(
        UnsafeRawBufferPointer(rebasing: buffer[payload]), at: entry.offset, path: snapshotPath, offset: payload.lowerBound - Frame.headerSize)
    }
  }

  /// Every task with a record, deleted ones too.
  func taskKeys() -> Set<EntityKey> {
    var keys = Set(tailTasks.map { EntityKey.task(TaskID($0)) })
    if let index = self.keys {
      let prefix = Array("task/".utf8)
      for entry in index.entries(startingWith: prefix) {
        keys.insert(.task(TaskID(String(decoding: index.entry(entry).owner.dropFirst(prefix.count), as: UTF8.self))))
      }
    }
    return keys
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

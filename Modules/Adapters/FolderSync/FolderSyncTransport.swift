import Domain
import Foundation
import Persistence
import Sync

/// `folder:PATH`: a directory a file-sync tool (Syncthing, Nextcloud) keeps
/// in step. Each replica writes only its own `PATH/REPLICA/seg-….jsonl`
/// files (written under a temporary name, then renamed) and reads every
/// other replica's; the cursor remembers how many lines of each file were
/// applied, so a file that arrives half-written is read up to its last
/// complete, checked line and picked up again when the rest arrives.
public final class FolderSyncTransport: SyncTransport, Sendable {
  public let path: String
  public var name: String { "folder:\(path)" }

  public init(path: String) {
    self.path = path
  }

  public func push(_ records: [OperationRecord], from replica: ReplicaID) throws {
    guard !records.isEmpty else { return }
    let directory = path + "/" + replica.rawValue
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw SyncError("cannot create \(directory): \(error.localizedDescription)")
    }
    var data = Data()
    for record in records { data.append(try SegmentLine.encode(record)) }
    let name = "seg-\(records[0].stamp)-\(records.count).jsonl"
    let temporary = directory + "/." + name + ".tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw SyncError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
    let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    let synced = fsync(descriptor) == 0
    close(descriptor)
    guard written == data.count, synced, rename(temporary, directory + "/" + name) == 0 else {
      unlink(temporary)
      throw SyncError("cannot write the segment \(directory)/\(name)")
    }
  }

  public func pull(after cursor: String?, replica: ReplicaID) throws -> SyncPull {
    var read: [String: Int] = [:]
    if let cursor, !cursor.isEmpty {
      guard let decoded = try? JSONDecoder().decodeOutside([String: Int].self, from: Data(cursor.utf8)) else {
        throw SyncError("the saved position for \(name) is unreadable; run 'whilehere sync --from-start'")
      }
      read = decoded
    }
    guard FileManager.default.fileExists(atPath: path) else { throw SyncError("the sync folder \(path) does not exist") }
    var records: [OperationRecord] = []
    var warnings: [String] = []
    var contact: [String: String] = [:]
    let replicas = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0 != replica.rawValue && !$0.hasPrefix(".") }.sorted()
    for other in replicas {
      let directory = path + "/" + other
      let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("seg-") && $0.hasSuffix(".jsonl") }.sorted()
      for file in files {
        let key = other + "/" + file
        let full = directory + "/" + file
        if let modified = (try? FileManager.default.attributesOfItem(atPath: full))?[.modificationDate] as? Date {
          contact[other] = max(contact[other] ?? "", ISO8601DateFormatter().string(from: modified))
        }
        guard let data = FileManager.default.contents(atPath: full) else {
          warnings.append("\(full): unreadable; skipped")
          continue
        }
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        // The piece after the last newline is not complete yet.
        let complete = lines.count - 1
        var done = read[key] ?? 0
        while done < complete {
          switch SegmentLine.decode(Data(lines[done])) {
          case .success(let record):
            records.append(record)
            done += 1
            continue
          case .failure(let error):
            warnings.append("\(full) line \(done + 1): \(error.reason); skipped until it is complete")
          }
          break
        }
        if done == complete, data.last != 0x0A, !(lines.last?.isEmpty ?? true) {
          warnings.append("\(full): half-written (no end of line after line \(complete)); the rest is picked up later")
        }
        read[key] = done
      }
    }
    let encoded = (try? JSONEncoder().encode(read)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    return SyncPull(records: records, cursor: encoded, warnings: warnings, lastContact: contact)
  }
}

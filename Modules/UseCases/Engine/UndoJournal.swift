import Domain
import Foundation
import Persistence

/// What `whilehere undo` can put back: each delete of a task, place or list
/// and each Mark Done records, in the same batch as the change, the
/// entities as they were. Entries live in `local.undo.*` settings (never
/// synced: an undo is this device's), newest first, for 30 days.
public struct UndoJournal: Sendable {
  public struct Entry: Sendable, Equatable {
    public let key: String
    /// What was done, as a person would say it ("deleted list 'Groceries' and its 3 places").
    public let label: String
    public let at: Date
    public let restores: [Entity]
  }

  static let prefix = "local.undo."
  public static let keepFor: TimeInterval = 30 * 86_400

  let context: EngineContext

  /// The operations that record `label` and what putting back means; the
  /// caller appends them with the change itself, so both land or neither.
  /// Entries past 30 days go in the same batch.
  func record(_ label: String, restoring entities: [Entity]) -> [StoreOperation] {
    let now = context.clock.now()
    let millis = Int64((now.timeIntervalSince1970 * 1000).rounded())
    let stored = Stored(label: label, at: now.timeIntervalSince1970, restores: entities.map {
      OperationRecord(stamp: HLCTimestamp(wallMillis: 0, counter: 0, replica: context.store.replica), operation: .put($0))
    })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // Entities are plain values; encoding cannot fail.
    let value = String(decoding: try! encoder.encode(stored), as: UTF8.self)
    // Not from `ids`: repeatable runs keep their ids whether or not they undo.
    // Changes in the same millisecond (a manual clock, quick answers) are
    // numbered, so the newest sorts first and `undo` takes it, not a random one.
    let all = entries(includingExpired: true)
    let stem = Self.prefix + String(format: "%016lld", millis) + "."
    let sequence = all.filter { $0.key.hasPrefix(stem) }.count
    let key = stem + String(format: "%04d", sequence) + "." + UUID().uuidString.prefix(8).lowercased()
    let expired = all.filter { now.timeIntervalSince($0.at) > Self.keepFor }
    return [.put(.setting(key: key, value: value))] + expired.map { .delete(.setting($0.key)) }
  }

  /// Undo entries still kept, newest first.
  public func entries() -> [Entry] { entries(includingExpired: false) }

  private func entries(includingExpired: Bool) -> [Entry] {
    let now = context.clock.now()
    let decoder = JSONDecoder()
    // Read alone where the store can, so a Mark Done does not read every place.
    let settings = (try? context.settings(startingWith: Self.prefix)) ?? context.store.state().settings
    return settings.compactMap { key, value -> Entry? in
      guard key.hasPrefix(Self.prefix), let stored = try? decoder.decodeOutside(Stored.self, from: Data(value.utf8)) else { return nil }
      let at = Date(timeIntervalSince1970: stored.at)
      guard includingExpired || now.timeIntervalSince(at) <= Self.keepFor else { return nil }
      let entities = stored.restores.compactMap { record -> Entity? in
        if case .put(let entity) = record.operation { return entity }
        return nil
      }
      return Entry(key: key, label: stored.label, at: at, restores: entities)
    }.sorted { $0.key > $1.key }
  }

  /// Puts back what the newest entry (or the one with `key`) removed or
  /// changed, and forgets the entry.
  @discardableResult
  public func undo(_ key: String? = nil) throws -> Entry {
    let all = entries()
    guard let key else {
      guard let newest = all.first else {
        throw DomainError.conflict("nothing to undo (deletes of tasks, places and lists, and Done, can be undone for 30 days)")
      }
      return try undo(entry: newest)
    }
    guard let entry = all.first(where: { $0.key == key || $0.key.hasSuffix("." + key) }) else {
      throw DomainError.notFound(kind: "change to undo", reference: key)
    }
    return try undo(entry: entry)
  }

  private func undo(entry: Entry) throws -> Entry {
    try context.store.append(entry.restores.map { .put($0) } + [.delete(.setting(entry.key))])
    return entry
  }

  struct Stored: Codable {
    let label: String
    let at: TimeInterval
    let restores: [OperationRecord]
  }
}

import Domain
import Foundation


/// Batches of records in the stores' binary form (Docs/Formats.md): a count,
/// then per record its stamp, an operation tag and the entity or key.
/// Binary because opening a store decodes every record: JSON made a 100k-place
/// open 90× slower than reading its bytes. The FileStore frames it; the
/// SQLite store keeps one record per row in it.
public enum RecordCodec {
  enum Tag: UInt8 {
    case putTask = 1, putPlace, putList, putMembership, putSetting, putSourceEntry, putTag
    /// A task or place with what version 4 added (a task's flags, a
    /// provider's opening hours); written only when that is set, so
    /// everything else reads as before.
    case putTaskV4 = 0x08, putPlaceV4
    /// Updates: a field mask, then the entity whose listed fields they set.
    case updateTask = 0x11, updatePlace, updateList
    case updateTaskV4 = 0x14, updatePlaceV4
    case deleteTask = 0x81, deletePlace, deleteList, deleteMembership, deleteSetting, deleteSourceEntry, deleteTag
  }

  public static func encode(_ records: [OperationRecord]) -> [UInt8] {
    var ignored: [Int] = []
    return encode(records, offsets: &ignored)
  }

  /// `encode`, also giving where each record starts in the bytes, for
  /// reading one alone later (`decode(at:)`).
  public static func encode(_ records: [OperationRecord], offsets: inout [Int]) -> [UInt8] {
    var writer = BinaryWriter()
    writer.bytes.reserveCapacity(records.count * 96)
    offsets.reserveCapacity(offsets.count + records.count)
    writer.array(records) { writer, record in
      offsets.append(writer.bytes.count)
      writer.varint(UInt64(record.stamp.wallMillis))
      writer.varint(UInt64(record.stamp.counter))
      writer.string(record.stamp.replica.rawValue)
      let update = record.fields
      switch record.operation {
      case .put(.task(let task)):
        if task.onlyWhileOpen {
          writer.tag(update == nil ? Tag.putTaskV4 : .updateTaskV4, update)
          writer.task(task)
          writer.varint(TaskFlags(task).rawValue)
        } else {
          writer.tag(update == nil ? Tag.putTask : .updateTask, update)
          writer.task(task)
        }
      case .put(.place(let place)):
        if let hours = place.provider?.hours {
          writer.tag(update == nil ? Tag.putPlaceV4 : .updatePlaceV4, update)
          writer.place(place)
          writer.string(hours)
        } else {
          writer.tag(update == nil ? Tag.putPlace : .updatePlace, update)
          writer.place(place)
        }
      case .put(.list(let list)):
        writer.tag(update == nil ? Tag.putList : .updateList, update)
        writer.string(list.id.rawValue)
        writer.string(list.name)
        writer.date(list.createdAt)
      case .put(.membership(let membership)):
        writer.byte(Tag.putMembership.rawValue)
        writer.membership(membership)
      case .put(.setting(let key, let value)):
        writer.byte(Tag.putSetting.rawValue)
        writer.string(key)
        writer.string(value)
      case .put(.sourceEntry(let entry)):
        writer.byte(Tag.putSourceEntry.rawValue)
        // Rare and small: JSON inside the binary record keeps the codec short.
        writer.string(String(decoding: try! JSONEncoder().encode(entry), as: UTF8.self))
      case .put(.tag(let tag)):
        writer.byte(Tag.putTag.rawValue)
        writer.placeTag(tag)
      case .delete(.tag(let tag)):
        writer.byte(Tag.deleteTag.rawValue)
        writer.placeTag(tag)
      case .delete(.sourceEntry(let id)):
        writer.byte(Tag.deleteSourceEntry.rawValue)
        writer.string(id)
      case .delete(.task(let id)):
        writer.byte(Tag.deleteTask.rawValue)
        writer.string(id.rawValue)
      case .delete(.place(let id)):
        writer.byte(Tag.deletePlace.rawValue)
        writer.string(id.rawValue)
      case .delete(.list(let id)):
        writer.byte(Tag.deleteList.rawValue)
        writer.string(id.rawValue)
      case .delete(.membership(let membership)):
        writer.byte(Tag.deleteMembership.rawValue)
        writer.membership(membership)
      case .delete(.setting(let key)):
        writer.byte(Tag.deleteSetting.rawValue)
        writer.string(key)
      }
    }
    return writer.bytes
  }

  /// Decodes a frame's payload; any malformed byte is reported as damage at
  /// the frame's offset, with the reason.
  public static func decode(_ bytes: UnsafeRawBufferPointer, path: String, offset: Int) throws -> [OperationRecord] {
    var reader = BinaryReader(bytes)
    do {
      let records = try reader.array { reader in try record(&reader) }
      guard reader.isAtEnd else { throw reader.fail("trailing bytes") }
      return records
    } catch {
      throw StoreError.corrupt(
        path: path, offset: UInt64(offset), reason: "record has a valid checksum but does not decode (\(error))")
    }
  }

  /// The one record that starts at `start` in a batch's bytes (an offset
  /// `encode(_:offsets:)` gave); damage is reported as `decode` does.
  public static func decode(_ bytes: UnsafeRawBufferPointer, at start: Int, path: String, offset: Int) throws -> OperationRecord {
    do {
      guard start > 0, start < bytes.count else { throw BinaryReader(bytes).fail("no record starts at byte \(start)") }
      var reader = BinaryReader(UnsafeRawBufferPointer(rebasing: bytes[start...]))
      return try record(&reader)
    } catch {
      throw StoreError.corrupt(
        path: path, offset: UInt64(offset), reason: "record has a valid checksum but does not decode (\(error))")
    }
  }

  /// A task's yes/no settings added by version 4, one bit each.
  struct TaskFlags: OptionSet {
    let rawValue: UInt64
    static let onlyWhileOpen = TaskFlags(rawValue: 1)
    static let known: TaskFlags = [.onlyWhileOpen]

    init(rawValue: UInt64) { self.rawValue = rawValue }
    init(_ task: ReminderTask) { self = task.onlyWhileOpen ? .onlyWhileOpen : [] }
  }

  static func record(_ reader: inout BinaryReader) throws -> OperationRecord {
    let wall = try reader.varint()
    let counter = try reader.varint()
    guard wall <= UInt64(Int64.max), counter <= UInt64(UInt32.max) else { throw reader.fail("stamp out of range") }
    let replica = try ReplicaID(try reader.string())
    let stamp = HLCTimestamp(wallMillis: Int64(wall), counter: UInt32(counter), replica: replica)
    guard let tag = Tag(rawValue: try reader.byte()) else { throw reader.fail("unknown operation tag") }
    let operation: StoreOperation
    var fields: EntityFields?
    switch tag {
    case .putTask: operation = .put(.task(try reader.task()))
    case .putTaskV4: operation = .put(.task(try reader.taskV4()))
    case .putPlace: operation = .put(.place(try reader.place()))
    case .putPlaceV4: operation = .put(.place(try reader.placeV4()))
    case .putList: operation = .put(.list(try reader.list()))
    case .updateTask, .updatePlace, .updateList, .updateTaskV4, .updatePlaceV4:
      let mask = try reader.varint()
      switch tag {
      case .updateTask: operation = .put(.task(try reader.task()))
      case .updateTaskV4: operation = .put(.task(try reader.taskV4()))
      case .updatePlace: operation = .put(.place(try reader.place()))
      case .updatePlaceV4: operation = .put(.place(try reader.placeV4()))
      default: operation = .put(.list(try reader.list()))
      }
      let all = EntityFields.all(of: operation.key)
      guard mask != 0, mask <= UInt64(all.rawValue), all.contains(EntityFields(rawValue: UInt16(mask))) else {
        throw reader.fail("update of fields that \(operation.key) does not have")
      }
      fields = EntityFields(rawValue: UInt16(mask))
    case .putTag: operation = .put(.tag(try reader.placeTag()))
    case .deleteTag: operation = .delete(.tag(try reader.placeTag()))
    case .putMembership: operation = .put(.membership(try reader.membership()))
    case .putSetting: operation = .put(.setting(key: try reader.string(), value: try reader.string()))
    case .deleteTask: operation = .delete(.task(TaskID(try reader.string())))
    case .deletePlace: operation = .delete(.place(PlaceID(try reader.string())))
    case .deleteList: operation = .delete(.list(ListID(try reader.string())))
    case .deleteMembership: operation = .delete(.membership(try reader.membership()))
    case .deleteSetting: operation = .delete(.setting(try reader.string()))
    case .putSourceEntry:
      guard let entry = try? JSONDecoder().decodeOutside(SourceEntry.self, from: Data(try reader.string().utf8)) else {
        throw reader.fail("an imported entry does not decode")
      }
      operation = .put(.sourceEntry(entry))
    case .deleteSourceEntry: operation = .delete(.sourceEntry(try reader.string()))
    }
    return OperationRecord(stamp: stamp, operation: operation, fields: fields)
  }
}

import Domain
import Foundation


extension BinaryWriter {
  mutating func coordinate(_ value: Coordinate) {
    double(value.latitude)
    double(value.longitude)
  }

  mutating func membership(_ value: Membership) {
    string(value.list.rawValue)
    string(value.place.rawValue)
  }

  mutating func placeTag(_ value: PlaceTag) {
    string(value.place.rawValue)
    string(value.name)
  }

  mutating func tag(_ tag: RecordCodec.Tag, _ fields: EntityFields?) {
    byte(tag.rawValue)
    if let fields { varint(UInt64(fields.rawValue)) }
  }

  mutating func task(_ task: ReminderTask) {
    string(task.id.rawValue)
    string(task.title)
    string(task.notes)
    array(task.keywords) { $0.string($1) }
    switch task.state {
    case .active: byte(0)
    case .snoozed(let until):
      byte(1)
      date(until)
    case .completed(let at):
      byte(2)
      date(at)
    }
    array(task.locations) { writer, location in
      writer.string(location.id.rawValue)
      switch location.target {
      case .coordinate(let coordinate):
        writer.byte(0)
        writer.coordinate(coordinate)
      case .place(let id):
        writer.byte(1)
        writer.string(id.rawValue)
      }
      writer.double(location.radius)
      writer.byte(location.enabled ? 1 : 0)
    }
    date(task.createdAt)
  }

  mutating func place(_ place: Place) {
    string(place.id.rawValue)
    let personal = place.personal
    optional(personal.name) { $0.string($1) }
    optional(personal.coordinate) { $0.coordinate($1) }
    optional(personal.address) { $0.string($1) }
    array(personal.tags) { $0.string($1) }
    string(personal.note)
    optional(place.provider) { writer, provider in
      writer.string(provider.ref)
      writer.optional(provider.name) { $0.string($1) }
      writer.coordinate(provider.coordinate)
      writer.optional(provider.address) { $0.string($1) }
      writer.optional(provider.category) { $0.string($1) }
      writer.date(provider.fetchedAt)
      writer.date(provider.expiresAt)
    }
    date(place.createdAt)
  }
}

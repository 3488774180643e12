// Appends to a store (a FileStore directory, or sqlite:PATH) from several
// threads as fast as it can and prints `ack KEY` for every write the store
// acknowledged, until killed. The crash tests SIGKILL it at random moments
// and check each acked key survived. `lazy:DIRECTORY` and
// `sqlite-lazy:PATH` open the store as the CLI does and read only what
// they write, so writes are made in place where the store allows it (a
// store this run creates is written whole the first time); each writer
// says `in-place` after its first write made so.
import Domain
import FileStore
import Foundation
import Persistence
import SQLiteStore

let arguments = CommandLine.arguments
guard arguments.count >= 3, let writers = Int(arguments[2]) else {
  FileHandle.standardError.write(Data("usage: store-torture [lazy:]DIRECTORY|sqlite[-lazy]:PATH WRITERS [COMPACT_AFTER_BYTES]\n".utf8))
  exit(64)
}
let compactAfter = arguments.count > 3 ? Int(arguments[3]) ?? (16 << 20) : (16 << 20)
let store: any OperationStore
/// Set for the lazy targets: reads go through it, never through `state()`.
var partial: (any PartialReading)?
/// Whether the lazy store still writes without the whole state.
var writesInPlace: @Sendable () -> Bool = { false }
do {
  let target = arguments[1]
  if target.hasPrefix("sqlite-lazy:") {
    let lazy = try SQLiteOperationStore(path: String(target.dropFirst("sqlite-lazy:".count)), lazily: true)
    (store, partial) = (lazy, lazy)
    writesInPlace = { !lazy.isReadWhole }
  } else if target.hasPrefix("sqlite:") {
    store = try SQLiteOperationStore(path: String(target.dropFirst("sqlite:".count)))
  } else if target.hasPrefix("lazy:") {
    let directory = String(target.dropFirst("lazy:".count))
    let options = FileStoreOptions(compactAfterBytes: compactAfter, access: .shared)
    let clock = SystemClock()
    let lazy = LazyFileStore(directory: directory, options: options, clock: clock) {
      try FileOperationStore(directory: directory, clock: clock, options: options)
    }
    (store, partial) = (lazy, lazy)
    writesInPlace = { !lazy.isOpenWhole }
  } else {
    store = try FileOperationStore(directory: target, options: FileStoreOptions(compactAfterBytes: compactAfter))
  }
} catch {
  FileHandle.standardError.write(Data("open failed: \(error)\n".utf8))
  exit(1)
}
let reader = partial
let inPlace = writesInPlace
let output = NSLock()
let start = try reader.map { try $0.settingKeys(startingWith: "").count } ?? store.state().settings.count
print("ready \(start)")
fflush(nil)

let heldPlace: @Sendable (PlaceID) throws -> Place? = { id in
  try reader.map { try $0.state(of: [.place(id)]).places[id] } ?? store.state().places[id]
}

// One more writer edits a place: each write adds a tag and changes the
// note, so the log holds field updates and tag records as well (acked as
// `tag NAME`). One thread only: concurrent read-modify-writes of the same
// place would race by design.
let placeID = PlaceID("torture-place")
if (try? heldPlace(placeID)) == nil {
  let place = Place(
    id: placeID, personal: PersonalPlaceData(name: "Torture", coordinate: try! Coordinate(latitude: 60.17, longitude: 24.94)),
    createdAt: Date(timeIntervalSince1970: 1_780_000_000))
  _ = try! store.append([.put(.place(place))])
}
let editor = Thread {
  var n = 0
  while true {
    n += 1
    guard var place = try? heldPlace(placeID) else { exit(2) }
    let tag = "t\(start)-\(n)"
    place.personal.tags.append(tag)
    place.personal.note = "edit \(n)"
    do {
      _ = try store.append([.put(.place(place))])
    } catch {
      FileHandle.standardError.write(Data("append failed: \(error)\n".utf8))
      exit(1)
    }
    output.lock()
    print("tag \(tag)")
    fflush(nil)
    output.unlock()
  }
}

let threads = (0..<writers).map { writer in
  Thread {
    var n = 0
    var saidInPlace = false
    while true {
      n += 1
      let keys = (0..<(1 + n % 3)).map { "w\(writer)-\(start)-\(n)-\($0)" }
      do {
        _ = try store.append(keys.map { .put(.setting(key: $0, value: String(repeating: "x", count: n % 200))) })
      } catch {
        FileHandle.standardError.write(Data("append failed: \(error)\n".utf8))
        exit(1)
      }
      let sayInPlace = !saidInPlace && inPlace()
      saidInPlace = saidInPlace || sayInPlace
      output.lock()
      for key in keys { print("ack \(key)") }
      if sayInPlace { print("in-place") }
      fflush(nil)
      output.unlock()
    }
  }
}
threads.forEach { $0.start() }
editor.start()
while true { sleep(60) }

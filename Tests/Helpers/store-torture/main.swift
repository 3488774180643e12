// Appends to a store (a FileStore directory, or sqlite:PATH) from several
// threads as fast as it can and prints `ack KEY` for every write the store
// acknowledged, until killed. The crash tests SIGKILL it at random moments
// and check each acked key survived.
import Domain
import FileStore
import Foundation
import Persistence
import SQLiteStore

let arguments = CommandLine.arguments
guard arguments.count >= 3, let writers = Int(arguments[2]) else {
  FileHandle.standardError.write(Data("usage: store-torture DIRECTORY|sqlite:PATH WRITERS [COMPACT_AFTER_BYTES]\n".utf8))
  exit(64)
}
let compactAfter = arguments.count > 3 ? Int(arguments[3]) ?? (16 << 20) : (16 << 20)
let store: any OperationStore
do {
  if arguments[1].hasPrefix("sqlite:") {
    store = try SQLiteOperationStore(path: String(arguments[1].dropFirst("sqlite:".count)))
  } else {
    store = try FileOperationStore(directory: arguments[1], options: FileStoreOptions(compactAfterBytes: compactAfter))
  }
} catch {
  FileHandle.standardError.write(Data("open failed: \(error)\n".utf8))
  exit(1)
}
let output = NSLock()
let start = store.state().settings.count
print("ready \(start)")
fflush(nil)

// One more writer edits a place: each write adds a tag and changes the
// note, so the log holds field updates and tag records as well (acked as
// `tag NAME`). One thread only: concurrent read-modify-writes of the same
// place would race by design.
let placeID = PlaceID("torture-place")
if store.state().places[placeID] == nil {
  let place = Place(
    id: placeID, personal: PersonalPlaceData(name: "Torture", coordinate: try! Coordinate(latitude: 60.17, longitude: 24.94)),
    createdAt: Date(timeIntervalSince1970: 1_780_000_000))
  _ = try! store.append([.put(.place(place))])
}
let editor = Thread {
  var n = 0
  while true {
    n += 1
    guard var place = store.state().places[placeID] else { exit(2) }
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
    while true {
      n += 1
      let keys = (0..<(1 + n % 3)).map { "w\(writer)-\(start)-\(n)-\($0)" }
      do {
        _ = try store.append(keys.map { .put(.setting(key: $0, value: String(repeating: "x", count: n % 200))) })
      } catch {
        FileHandle.standardError.write(Data("append failed: \(error)\n".utf8))
        exit(1)
      }
      output.lock()
      for key in keys { print("ack \(key)") }
      fflush(nil)
      output.unlock()
    }
  }
}
threads.forEach { $0.start() }
editor.start()
while true { sleep(60) }

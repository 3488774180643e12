import Domain
import Foundation
import Engine
import Persistence
import Testing
import TestSupport

@Suite struct PlaceServiceTests {
  func coordinate(_ lat: Double, _ lon: Double) -> Coordinate { try! Coordinate(latitude: lat, longitude: lon) }

  /// A name found nowhere is answered with the closest name by edits
  /// (within a third of its length, at least 2; among equally close the
  /// first by name), as a plain edit distance over every sorted name
  /// finds it, for ASCII names and others alike.
  @Test func aSlipIsAnsweredWithTheClosestName() throws {
    let h = EngineHarness()
    var random = SplitMix64(seed: 7)
    let letters = Array("abcdeéköä ")
    func word(_ count: Int) -> String { String((0..<count).map { _ in letters[Int(random.next() % UInt64(letters.count))] }) }
    let names = (0..<300).map { _ in word(3 + Int(random.next() % 7)).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    try h.store.append(names.enumerated().map { .put(.place(Fixtures.place("p\($0.offset)", name: $0.element))) })
    func distance(_ a: [Character], _ b: [Character]) -> Int {
      var previous = Array(0...b.count)
      for i in 1...max(1, a.count) where !a.isEmpty {
        var current = [i] + [Int](repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
          current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
      }
      return a.isEmpty ? b.count : previous[b.count]
    }
    var checked = 0
    for _ in 0..<200 {
      let typed = word(4 + Int(random.next() % 6)).trimmingCharacters(in: .whitespaces)
      let folded = SearchText.fold(typed)
      guard !folded.isEmpty else { continue }
      let limit = max(2, folded.count / 3)
      let expected = names.sorted().map { (distance(Array(folded), Array(SearchText.fold($0))), $0) }.filter { $0.0 <= limit }.min { $0 < $1 }?.1
      do {
        _ = try h.engine.places.get(typed)
      } catch DomainError.notFound(_, _, let nearest) {
        #expect(nearest == expected, "\(typed)")
        checked += 1
      } catch {}
    }
    #expect(checked > 100, "most random words name no place")
  }

  /// Starts of a name's words, in any order, name the place; the middle
  /// of a word does not; accented names alike.
  @Test func wordsOfANameInAnyOrderNameThePlace() throws {
    let h = EngineHarness()
    for name in ["Buy milk and bread", "Kauppa Lidl", "Café Ursula", "Lidl-Pasila"] {
      _ = try h.engine.places.add(name: name, coordinate: Fixtures.helsinki)
    }
    #expect(try h.engine.places.get("bread milk").name == "Buy milk and bread")
    #expect(try h.engine.places.get("kaup lid").name == "Kauppa Lidl")
    #expect(try h.engine.places.get("urs cafe").name == "Café Ursula")
    #expect(try h.engine.places.get("pasila").name == "Lidl-Pasila")
    #expect(throws: DomainError.self, "the middle of a word") { try h.engine.places.get("ilk bre") }
    #expect(throws: DomainError.self, "one word of two") { try h.engine.places.get("milk pasila") }
  }

  @Test func tagsAreKeptOnceAndUntaggingUnknownTagsIsRefused() throws {
    let h = EngineHarness()
    _ = try h.engine.places.add(name: "Alepa", coordinate: Fixtures.helsinki, tags: ["grocery"])
    var place = try h.engine.places.tag("Alepa", ["Grocery", "late", " "])
    #expect(place.personal.tags == ["grocery", "late"])
    place = try h.engine.places.untag("alepa", ["LATE"])
    #expect(place.personal.tags == ["grocery"])
    #expect(throws: DomainError.self) { try h.engine.places.untag("Alepa", ["nope"]) }
  }

  @Test func aPlaceIsInManyListsButNeverTwiceInOne() throws {
    let h = EngineHarness()
    _ = try h.engine.places.add(name: "Alepa", coordinate: Fixtures.helsinki)
    _ = try h.engine.places.lists.create("Groceries")
    _ = try h.engine.places.lists.create("Late night")
    _ = try h.engine.places.lists.add(place: "Alepa", to: "Groceries")
    _ = try h.engine.places.lists.add(place: "Alepa", to: "Late night")
    #expect(throws: DomainError.self) { try h.engine.places.lists.add(place: "Alepa", to: "groceries") }
    #expect(throws: DomainError.self) { try h.engine.places.lists.create("GROCERIES") }
    let combined = try h.engine.places.lists.show(["Groceries", "Late night"])
    #expect(combined.entries.count == 1)
    #expect(combined.entries[0].lists == ["Groceries", "Late night"])
  }

  @Test func deletingAListKeepsPlacesOtherListsOrTasksUse() throws {
    let h = EngineHarness()
    for name in ["Shared", "Only here", "Used by task"] {
      _ = try h.engine.places.add(name: name, coordinate: Fixtures.helsinki)
    }
    _ = try h.engine.places.lists.create("A")
    _ = try h.engine.places.lists.create("B")
    for name in ["Shared", "Only here", "Used by task"] { _ = try h.engine.places.lists.add(place: name, to: "A") }
    _ = try h.engine.places.lists.add(place: "Shared", to: "B")
    _ = try h.engine.tasks.add(title: "T", locations: [LocationSpec(target: .place("Used by task"))])
    let deletion = try h.engine.places.lists.delete("A")
    #expect(deletion.placesKept == 2)
    #expect(deletion.placesRemoved.map(\.name) == ["Only here"])
    let state = h.store.state()
    #expect(Set(state.places.values.map(\.name)) == ["Shared", "Used by task"])
    #expect(state.memberships.count == 1)
    #expect(state.lists.values.map(\.name) == ["B"])
  }

  @Test func aPlaceUsedByATaskCannotBeDeleted() throws {
    let h = EngineHarness()
    _ = try h.engine.places.add(name: "Alepa", coordinate: Fixtures.helsinki)
    _ = try h.engine.tasks.add(title: "Milk", locations: [LocationSpec(target: .place("Alepa"))])
    let error = #expect(throws: DomainError.self) { try h.engine.places.delete("Alepa") }
    #expect(error?.description.contains("'Milk'") == true)
  }

  @Test func searchIgnoresAccentsAndCaseAndSortsStably() throws {
    let h = EngineHarness()
    _ = try h.engine.places.add(name: "Café Regatta", coordinate: coordinate(60.1831, 24.9117))
    _ = try h.engine.places.add(name: "cafe Ekberg", coordinate: coordinate(60.1633, 24.9390))
    _ = try h.engine.places.add(name: "Fazer Café", coordinate: coordinate(60.1688, 24.9445), tags: ["pastry"])
    _ = try h.engine.places.add(name: "Alepa", coordinate: coordinate(60.17, 24.94), tags: ["CAFE nearby"])
    let az = try h.engine.places.search("CAFÉ").map(\.place.name)
    #expect(az == ["Alepa", "cafe Ekberg", "Café Regatta", "Fazer Café"])
    let near = try h.engine.places.search("cafe", order: .nearest(coordinate(60.1633, 24.9390)))
    #expect(near.first?.place.name == "cafe Ekberg")
    #expect(near.map(\.distance!) == near.map(\.distance!).sorted())
    #expect(try h.engine.places.search("pastry").map(\.place.name) == ["Fazer Café"])
  }

  @Test func searchWithinOneList() throws {
    let h = EngineHarness()
    _ = try h.engine.places.add(name: "Café A", coordinate: Fixtures.helsinki)
    _ = try h.engine.places.add(name: "Café B", coordinate: Fixtures.helsinki)
    _ = try h.engine.places.lists.create("Favourites")
    _ = try h.engine.places.lists.add(place: "Café B", to: "Favourites")
    #expect(try h.engine.places.search("cafe", in: "favourites").map(\.place.name) == ["Café B"])
    #expect(throws: DomainError.self) { try h.engine.places.search("cafe", in: "nope") }
  }

  @Test func equalDistancesKeepAFixedOrder() throws {
    let h = EngineHarness()
    for name in ["B", "A", "C"] { _ = try h.engine.places.add(name: name, coordinate: Fixtures.helsinki) }
    let once = try h.engine.places.search("", order: .nearest(Fixtures.helsinki)).map(\.place.name)
    let twice = try h.engine.places.search("", order: .nearest(Fixtures.helsinki)).map(\.place.name)
    #expect(once == ["A", "B", "C"] && once == twice)
  }
}

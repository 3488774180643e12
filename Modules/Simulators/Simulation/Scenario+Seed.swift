import Domain
import Engine
import Foundation

extension Scenario {
  /// Saves the scenario's places and creates its tasks through `engine`, as
  /// a person would with `place add` and `task add` (the main job, and the
  /// daemon's live demo).
  public func seed(into engine: Engine) throws {
    for entry in places {
      let coordinate = try Coordinate(latitude: entry.lat, longitude: entry.lon)
      var place = try engine.places.add(name: entry.name, coordinate: coordinate, address: entry.address, tags: entry.tags ?? [])
      guard let hours = entry.hours else { continue }
      // Opening hours are what a provider says of a place: saved as its provider data.
      let now = engine.context.clock.now()
      place.provider = ProviderPlaceData(
        ref: entry.osm.map { "osm:" + $0 } ?? "scenario:" + entry.name, name: entry.name, coordinate: coordinate, address: entry.address,
        category: nil, fetchedAt: now, expiresAt: now.addingTimeInterval(SuggestionService.providerDataLifetime), hours: hours)
      try engine.context.store.append([.put(.place(place))])
    }
    for entry in tasks {
      let radii = entry.radius ?? []
      guard radii.count <= 1 || radii.count == entry.at.count else {
        throw ScenarioError(source: "task '\(entry.title)'", message: "give one radius, or one per place (\(entry.at.count))")
      }
      let specs = try entry.at.enumerated().map { index, text -> LocationSpec in
        LocationSpec(target: try LocationSpec.Target(parsing: text), radius: radii.isEmpty ? nil : radii[radii.count == 1 ? 0 : index])
      }
      _ = try engine.tasks.add(title: entry.title, locations: specs, keywords: entry.keywords ?? [], onlyWhileOpen: entry.onlyWhileOpen ?? false)
    }
  }
}

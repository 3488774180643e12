import Composition

/// One of the people in the config, as a login knows them: a name and
/// their settings, without their store or engine (which a cluster worker
/// opens only for the partitions it holds, `People.person`).
struct Member: Sendable {
  let name: String
  let settings: PersonSettings
}

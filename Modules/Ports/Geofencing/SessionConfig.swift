import Foundation

/// The numbers of precise-location sessions and their budget (design card
/// defaults; all configurable).
public struct SessionConfig: Hashable, Sendable, Codable {
  /// No fix this long after starting (or since the last fix) stops the session.
  /// Assisted GPS gives its first fix within a few seconds (15 s is the
  /// simulated world's 95th percentile); a phone still without one after
  /// that is most often indoors, answering with Wi-Fi positions a session
  /// cannot use, and each further second is allowance the day's later
  /// places need (30 → 20 s: Docs/Benchmarks.md, twenty-first step).
  public var noFixTimeout: TimeInterval = 20
  /// The same for a phone reached over the network (OwnTracks): the
  /// command that switches it to move mode reaches it only with the answer
  /// to its next report, and its reports come on its own schedule, so
  /// waiting as long as a native phone would end sessions before their
  /// first report (on the OwnTracks Android row, 20 s cost 2–3 points of
  /// visits and a point of false alarms against 30 s).
  public var remoteNoFixTimeout: TimeInterval = 30
  /// A confirming fix too coarse to settle a place (less accurate than
  /// `fixMaxAccuracy`) while the motion history says the device is still
  /// starts a session only with this on. A still phone whose fix is that
  /// coarse is most likely indoors, where the session's fixes would be as
  /// coarse and its seconds wasted (3–4 fewer GPS minutes a day on six
  /// seeds at about the same recall: Docs/Benchmarks.md, twenty-second step);
  /// off, the entry waits for the next sign (a visit, a stop, an entry).
  public var sessionOnVagueFixWhileStill = false
  /// A phone's own report (OwnTracks) inside a place but not beyond
  /// doubt (coarser than `fixMaxAccuracy` or the radius, and its accuracy
  /// circle not inside) asks a confirming fix instead of firing, while a
  /// session reaches the device and the allowance holds `minimumSession`;
  /// otherwise (a gpsd receiver too: no session reaches it) it fires at its
  /// word (fewer false alarms on the OwnTracks rows: Docs/Benchmarks.md,
  /// twenty-ninth step).
  public var confirmVagueReports = true
  /// Standing within `stationaryRadius` this long stops it.
  public var stationaryStop: TimeInterval = 90
  public var stationaryRadius = 25.0
  /// The longest session.
  public var maxDuration: TimeInterval = 600
  /// Below `lowBattery`, in Low Power Mode or under serious heat, sessions shrink to these.
  public var reducedMaxDuration: TimeInterval = 180
  public var reducedStationaryStop: TimeInterval = 45
  public var lowBattery = 0.20
  /// A fix fires only when its accuracy is at most this (and at most the place's radius).
  public var fixMaxAccuracy = 50.0
  /// A fix implying a faster move than this from the last good one is an
  /// outlier (real traces jump kilometres while claiming good accuracy).
  public var maxPlausibleSpeed = 60.0
  /// Good fixes in a row inside a radius before it fires.
  public var confirmations = 2
  /// A destination the person got closer to and is now this much farther
  /// from (and outside its radius by as much) was passed: it is settled.
  public var passedMargin = 60.0
  /// …provided it came within this much of the radius: walking by at a
  /// distance is not passing a place.
  public var passedNear = 150.0
  /// Stop when the person has come no closer to any pending destination
  /// (by `progressStep` metres) for this long: they are not heading there.
  public var noProgressStop: TimeInterval = 120
  public var progressStep = 20.0
  /// Leaving the approach zone by this much settles every destination in it.
  public var leaveMargin = 50.0
  /// Rolling allowance of precise tracking.
  public var allowance: TimeInterval = 1800
  public var window: TimeInterval = 86_400
  /// GPS seconds one wake-up fix is charged to the allowance.
  public var wakeFixCharge: TimeInterval = 5
  /// After a wake-up fix finds the person where the plan was made (the OS's
  /// coarse position wandered, not the person), the next one waits this
  /// long, doubling each time up to `wakeFixBackoffMax`; a real move resets it.
  public var wakeFixBackoff: TimeInterval = 120
  public var wakeFixBackoffMax: TimeInterval = 1800
  /// Confirm an arrival region's entry with one precise fix before it
  /// fires (the OS's position may be far off): a fix inside fires, one
  /// close but outside starts a session, one far away fires nothing. An
  /// entry no fix can confirm (budget, power) fires nothing. Off: the OS's
  /// word fires (the design card; `whilehere-unconfirmed` in the benchmark).
  public var confirmArrivals = true
  /// A phone reached over the network (OwnTracks) that allows remote
  /// configuration runs a session in move mode: a report at least every
  /// `remoteInterval` seconds and whenever it moved `remoteDisplacement` metres.
  public var remoteInterval: TimeInterval = 5
  public var remoteDisplacement = 10.0
  /// A crossing the OS reports after the device's motion history has said
  /// "still" for this long (seconds) happened to the OS's position, not to
  /// the person: it starts no session, asks no fix and fires nothing.
  /// Twice the slowest delivery the OS documents; 0 turns the check off.
  public var stillnessVeto: TimeInterval = 600
  /// Between fixes a session rests, GPS off, while every pending
  /// destination is too far to reach sooner: for the distance to the
  /// nearest edge less `pauseMargin`, at the speed the fixes show (at least
  /// `pauseSpeedFloor`), less `pauseLead` for the GPS to come back (the
  /// 95th percentile first fix). Rests shorter than `pauseMinimum` are not
  /// taken; 0 turns rests off (phones reached over the network report on
  /// their own schedule and never rest).
  public var pauseMinimum: TimeInterval = 20
  public var pauseSpeedFloor = 2.0
  public var pauseLead: TimeInterval = 15
  public var pauseMargin = 30.0
  /// A session shorter than this is not worth starting.
  public var minimumSession: TimeInterval = 30
  /// A new session this soon after the last one started is refused.
  public var restartCooldown: TimeInterval = 60
  /// A session refused because one started less than `restartCooldown`
  /// ago starts when the cooldown ends, if its places still want
  /// confirming (the app kept awake meanwhile by reduced-accuracy updates).
  /// Off: the refusal drops it, and the entry that wanted it fires nothing.
  public var retryAfterCooldown = false

  public init() {}
}

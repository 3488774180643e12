import Domain
import Foundation

/// Every number the simulated world runs on, from
/// ../shared/SIMULATOR-CALIBRATION.md. One JSON file (`--world FILE`) can
/// replace any of them; the benchmark prints the world's name and hash.
public struct WorldConfig: Codable, Hashable, Sendable {
  /// iOS region monitoring. Sources: Apple, "Monitoring the user's
  /// proximity to geographic regions" (20 regions, the ~200 m and 20 s
  /// crossing rule, no entry when registered inside); Radius Networks'
  /// 2015 measurements (Wi-Fi delivery within ~30 s, some ~1 km away);
  /// Apple's older Location Awareness guide ("typically within 3 to 5
  /// minutes"). Docs/Benchmarks.md lists each number with its source.
  public struct RegionMonitoring: Codable, Hashable, Sendable {
    /// At most this many regions per app; one more fails.
    public var capacity = 20
    /// Metres past the boundary before a crossing counts. Applied in full
    /// wherever there is room: outside for an exit, and inside a region
    /// larger than the OS's minimum for an entry. A region at the minimum
    /// size enters as soon as the OS's position is inside it, which is how
    /// small regions fire at all, and early.
    public var crossingMargin = 200.0
    /// Seconds the device must stay past the margin.
    public var dwell = 20.0
    /// Delivery latency after the dwell, log-normal, by the positioning the
    /// OS had at the time: Wi-Fi (the best case measured) and cell (Apple's
    /// "typically 3 to 5 minutes"). Median and 95th percentile, seconds.
    public var latencyWiFiMedian = 20.0
    public var latencyWiFiP95 = 60.0
    public var latencyCellMedian = 180.0
    public var latencyCellP95 = 300.0
    /// How often the OS re-evaluates its coarse position, seconds.
    public var evaluationInterval = 5.0
    /// The OS treats smaller regions as this big, which is why small
    /// regions can fire up to ~100 m early.
    public var minimumEffectiveRadius = 100.0
    /// Seconds until a `requestState` is answered (from the OS's own belief).
    public var stateLatency = 1.0
    /// A device still for this long, seconds (still as the motion history
    /// judges it: under `Motion.stillSpeed`), has its crossings held back
    /// when it moves again: the OS resumes watching at a moment drawn
    /// uniformly up to `stationaryDelayMax` seconds after the move, and
    /// nothing is delivered before it. 0: never (iOS documents no such
    /// delay).
    public var stationaryAfter = 0.0
    public var stationaryDelayMax = 0.0

    public init() {}

    /// Android geofencing (Play services): 100 geofences per app
    /// (developer.android.com, "Create and monitor geofences"); alerts
    /// "typically within 2 minutes", 2–3 min on average under the
    /// background location limits (same page and "Background location
    /// limits"); 100–150 m recommended as the smallest radius. Android
    /// documents no crossing margin: 50 m is an assumption. "If the device
    /// has been stationary for a significant period of time, the latency
    /// may increase (up to 6 minutes)" (same page, troubleshooting): 360 s
    /// at most; 30 minutes still (Doze's idle, the screen off) is an
    /// assumption.
    public static var android: RegionMonitoring {
      var android = RegionMonitoring()
      android.stationaryAfter = 1800
      android.stationaryDelayMax = 360
      android.capacity = 100
      android.crossingMargin = 50
      android.latencyWiFiMedian = 120
      android.latencyWiFiP95 = 240
      android.latencyCellMedian = 150
      android.latencyCellP95 = 300
      return android
    }
  }

  /// The motion coprocessor (Core Motion's activity history, Android's
  /// activity recognition): whether the device is still, read for free by
  /// an app when something wakes it. The delays are an *assumption*: Apple
  /// and Google publish none; activity classifiers need a window of samples.
  public struct Motion: Codable, Hashable, Sendable {
    /// Slower than this (metres per second) is still.
    public var stillSpeed = 0.3
    /// Still this long before the history says "stationary", seconds…
    public var stillAfter = 120.0
    /// …and moving this long before it says "moving" again.
    public var movingAfter = 30.0

    public init() {}
  }

  /// The OwnTracks apps (booklet, "Location" and the apps' settings).
  public struct OwnTracksApps: Codable, Hashable, Sendable {
    /// Move mode's defaults when no one set them (booklet: 100 m, 300 s).
    public var moveInterval = 300.0
    public var moveDisplacement = 100.0
    /// Android's significant mode: the fused provider at balanced power, a
    /// fix at most every `androidInterval` seconds once the phone moved
    /// `androidDisplacement` metres (the app's preferences; the defaults
    /// are an assumption, not read from a release).
    public var androidInterval = 60.0
    public var androidDisplacement = 500.0
    /// Seconds an iOS app in the background stays connected to its MQTT
    /// broker after a wake (a suspended app gets ~10 s per event); commands
    /// sent meanwhile wait on the broker for its next wake.
    public var iosConnectedAfterWake = 10.0
    /// The iOS app's "extended data" (on in its HTTP and MQTT presets,
    /// OwnTracks iOS 26.3): each location carries, among others,
    /// `motionactivities`, the motion coprocessor's latest activity.
    public var iosExtendedData = true
    /// Whether the first messages of a wake carry the activity from before
    /// the app was suspended: Core Motion delivers the latest activity to
    /// the app when it resumes, and nothing orders that delivery before the
    /// region event the app publishes. Off (the activity at the wake) by
    /// default; on bounds how much the race can cost.
    public var iosStaleActivityAtWake = false
    /// The Android app's "extended data" (on by default, DefaultsProvider):
    /// each location carries `conn` and, while the phone is joined to a
    /// Wi-Fi network, its `BSSID` and `SSID` (MessageLocation.addWifi).
    public var androidExtendedData = true
    /// The phone is joined to the Wi-Fi it knows at home and at work while
    /// within this many metres of where the person stays there, and to none
    /// elsewhere (an assumption: an indoor access point reaches tens of
    /// metres, and people rarely join a shop's network).
    public var knownWifiRange = 40.0
    /// The Android app's "fused region detection" (on by default,
    /// DefaultsProvider): each location it publishes is checked against
    /// its waypoints with radius + accuracy and a change published as a
    /// transition (trigger "l"); a geofence event that repeats the last
    /// transition is then not published (LocationProcessor).
    public var androidFusedRegionDetection = true

    public init() {}
  }

  /// The OS's own position without GPS, behind region monitoring,
  /// significant change and reduced-accuracy updates: Wi-Fi (20–90 m) or
  /// cell (300–1000 m) positioning, each error correlated in time (a
  /// Gauss–Markov process per axis), and rare far jumps (crossings have
  /// been reported 1–3 km away).
  public struct CoarsePosition: Codable, Hashable, Sendable {
    /// Share of the time Wi-Fi positioning is available, and how long a
    /// stretch of either lasts on average, seconds.
    public var wifiShare = 0.7
    public var sourceStretch = 900.0
    /// Error per axis, metres (Rayleigh: Wi-Fi median 41 m, p95 86 m; cell median 353 m, p95 735 m).
    public var wifiSigma = 35.0
    public var cellSigma = 300.0
    /// How long an error persists (correlation time), seconds.
    public var wifiCorrelation = 60.0
    public var cellCorrelation = 300.0
    /// The accuracy the OS reports for each (iOS reports 65 m for Wi-Fi fixes).
    public var wifiAccuracy = 65.0
    public var cellAccuracy = 1000.0
    /// Far jumps: how many an hour, how far (metres) and how long (seconds).
    public var jumpsPerHour = 0.3
    public var jumpMin = 1000.0
    public var jumpMax = 3000.0
    public var jumpSecondsMin = 30.0
    public var jumpSecondsMax = 120.0

    public init() {}
  }

  /// Significant-change location service (Apple: ≥ 500 m, not more often
  /// than every 5 minutes; the energy guide: it may wake the app at least
  /// every 15 minutes). Positions and accuracy come from the coarse position.
  public struct SignificantChange: Codable, Hashable, Sendable {
    public var minDistance = 500.0
    public var minInterval = 300.0
    /// A delivery at least this often even without moving, seconds.
    public var maxInterval = 900.0

    public init() {}

    /// What stands in for it on Android, which has no such service: the
    /// fused provider at balanced power held by a foreground service, asked
    /// for a position at most every `interval` seconds once the phone moved
    /// `displacement` metres; nothing comes while it does not move.
    public static func androidBalancedPower(interval: Double, displacement: Double) -> SignificantChange {
      var updates = SignificantChange()
      updates.minInterval = interval
      updates.minDistance = displacement
      updates.maxInterval = .greatestFiniteMagnitude
      return updates
    }
  }

  /// Reduced-accuracy location updates (iOS `desiredAccuracy` of 100 m or
  /// more, Android's balanced-power priority): positions from Wi-Fi and
  /// cell, GPS off (Apple: at 1 km "the GPS is off"), delivered whenever the
  /// OS's position moved the app's distance filter. While they run the app
  /// is not suspended. The refresh period and the draw are *assumptions*:
  /// Apple says only "a fraction of" GPS power.
  public struct ReducedAccuracy: Codable, Hashable, Sendable {
    /// How often the OS refreshes its position while updates are on, seconds.
    public var refreshSeconds = 10.0
    /// Draw while on (Wi-Fi scans, the radio, an awake CPU), watts: a
    /// quarter of a GPS session's 0.45 W.
    public var watts = 0.1

    public init() {}
  }

  /// Visit monitoring (CLVisit): the OS notices a stay and wakes the app
  /// with where and since when, "less frequently" than other services and
  /// not for real-time use (Apple); departures are reported too. Apple
  /// publishes no delays: the stay, the radius and the latency are
  /// *assumptions*, chosen slow. Each delivery is a background wake.
  public struct Visits: Codable, Hashable, Sendable {
    /// A stay is this long within `stayRadius` metres of where it began, seconds.
    public var minimumStay = 300.0
    public var stayRadius = 100.0
    /// Delivery after the stay qualifies, log-normal median and p95, seconds.
    public var latencyMedian = 120.0
    public var latencyP95 = 900.0

    public init() {}
  }

  /// Precise (GPS) fixes. Accuracy follows the real trace in
  /// ../shared/data/traces (median 32 m, p90 64 m); the error is a 2-D
  /// Gaussian whose reported accuracy is a 68 % radius (Android's
  /// definition), so about a third of fixes fall outside it.
  public struct GPS: Codable, Hashable, Sendable {
    /// Time to first fix, log-normal median and p95, seconds.
    public var firstFixMedian = 4.0
    public var firstFixP95 = 15.0
    /// Chance a session gets no usable fix within 30 s.
    public var noFixChance = 0.10
    /// Chance starting location updates from the background fails
    /// outright (reports of CLError.denied after a region wake).
    public var backgroundStartFailure = 0.05
    /// Reported accuracy, log-normal: median and 90th percentile, metres.
    public var accuracyMedian = 32.0
    public var accuracyP90 = 64.0
    /// The share of fixes within their reported accuracy.
    public var accuracyConfidence = 0.68
    /// Chance of an outlier fix, and how far it jumps (metres); outliers report ordinary accuracy.
    public var outlierChance = 0.01
    public var outlierMin = 200.0
    public var outlierMax = 5000.0
    /// Seconds of GPS one single fix (a wake-up fix) costs.
    public var singleFixSeconds = 5.0
    /// Indoors GPS is worse: phones' embedded receivers have lower
    /// availability and accuracy inside buildings than outside (Kjærgaard
    /// et al., "Indoor positioning using GPS revisited", Pervasive 2010), and
    /// a phone without satellites answers with its Wi-Fi position (an
    /// iPhone's: median error 74 m indoors, Zandbergen 2009). The person is
    /// taken to be inside once they stayed within `indoorRadius` metres for
    /// `indoorAfter` seconds (every stay in this world is a home, a
    /// workplace or a shop); then each stay either lets GPS in, with its
    /// accuracy times `indoorAccuracyFactor`, or (the rest of
    /// `indoorGPSChance`) every precise fix is the OS's coarse position.
    /// The four numbers are *assumptions*.
    public var indoorAfter = 60.0
    public var indoorRadius = 25.0
    public var indoorGPSChance = 0.5
    public var indoorAccuracyFactor = 2.0

    public init() {}
  }

  /// Energy. GPS ≈ 76 mA at 4 V (AOSP power profile of a reference phone),
  /// with CPU and radio overhead while it runs; each background wake keeps
  /// the CPU up for about 10 s (Apple: a suspended app gets ~10 s per event).
  public struct Power: Codable, Hashable, Sendable {
    public var batteryWh = 11.5
    /// GPS draw while precise tracking is on, watts.
    public var gpsWatts = 0.3
    /// CPU and radio overhead on top of the GPS draw, as a factor.
    public var overhead = 1.5
    /// Seconds and watts of one background wake (a region event, a
    /// significant change, a single fix); what arrives within the seconds
    /// of a wake reaches the running app and only extends it.
    public var wakeSeconds = 10.0
    public var wakeWatts = 0.2
    /// Whether what arrives during a wake reaches the running app (true:
    /// as iOS delivers to a running app) or is a wake of its own (false:
    /// every delivery, simultaneous ones too, charged a whole wake).
    public var wakesOverlap = true
    public var startBattery = 0.8

    public init() {}

    /// Watt-hours of `gpsSeconds` of GPS, `awakeSeconds` kept awake by
    /// background wakes (`wakeSeconds` each, overlaps once) and
    /// `reducedSeconds` of reduced-accuracy updates at `reducedWatts`.
    public func energyWh(gpsSeconds: Double, awakeSeconds: Double, reducedSeconds: Double = 0, reducedWatts: Double = 0) -> Double {
      (gpsSeconds * gpsWatts * overhead + awakeSeconds * wakeWatts + reducedSeconds * reducedWatts) / 3600
    }
  }

  /// How people move (the calibration note's "People"), and what a day holds.
  public struct People: Codable, Hashable, Sendable {
    /// Speeds, metres per second: one drawn per day from each range.
    public var walkingMin = 1.2
    public var walkingMax = 1.5
    public var cyclingMin = 4.0
    public var cyclingMax = 6.0
    public var drivingMin = 8.0
    public var drivingMax = 14.0
    /// Share of days by mode.
    public var walkingShare = 0.6
    public var cyclingShare = 0.25
    /// Visit length, seconds (uniform).
    public var visitMin = 120.0
    public var visitMax = 1200.0
    /// Errand stops per day, over the day's errand trips.
    public var stopsMin = 3
    public var stopsMax = 7
    /// Share of task-place stops that are pass-bys rather than visits.
    public var passByShare = 0.3
    /// Share of stops at a spot that holds no task (a café, a friend's door).
    public var otherStopShare = 0.3
    /// Seconds stopped at a traffic light when driving or cycling, and how often per kilometre.
    public var lightStopMin = 30.0
    public var lightStopMax = 60.0
    public var lightsPerKm = 2.0
    /// A day: leave home between these hours, work this long on a work day.
    public var leaveHomeMin = 7.0
    public var leaveHomeMax = 9.0
    public var workDayShare = 0.7
    public var workHours = 8.0
    /// Chance of an errand trip at lunch (from work) and in the evening (from home).
    public var lunchTripChance = 0.5
    public var eveningTripChance = 0.6

    public init() {}
  }

  public var name = "calibrated-default"
  /// Places of the person inside the street area (the rest are spread over the metro area).
  public var localPlaces = 40
  public var regionMonitoring = RegionMonitoring()
  public var androidGeofencing = RegionMonitoring.android
  public var ownTracks = OwnTracksApps()
  public var motion = Motion()
  public var coarsePosition = CoarsePosition()
  public var significantChange = SignificantChange()
  public var reducedAccuracy = ReducedAccuracy()
  public var visits = Visits()
  public var gps = GPS()
  public var power = Power()
  public var people = People()
  /// Heat and Low Power Mode: chance per trip that heat turns serious for a while.
  public var seriousHeatChance = 0.05
  public var lowPowerModeChance = 0.1

  public init() {}

  /// A calm phone for a scripted walk in the city centre: Wi-Fi
  /// positioning throughout, no far jumps of the OS's position, no failed
  /// GPS starts, GPS indoors as outside, no random Low Power Mode or heat.
  public static var calmPhone: WorldConfig {
    var world = WorldConfig()
    world.name = "calm-phone"
    world.lowPowerModeChance = 0
    world.seriousHeatChance = 0
    world.coarsePosition.wifiShare = 1
    world.coarsePosition.jumpsPerHour = 0
    world.gps.backgroundStartFailure = 0
    world.gps.noFixChance = 0
    world.gps.indoorGPSChance = 1
    world.gps.indoorAccuracyFactor = 1
    return world
  }

  public static func load(_ path: String) throws -> WorldConfig {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ScenarioError(source: path, message: "cannot be read", kind: "world file")
    }
    return try merged(data, source: path)
  }

  /// A world file's bytes (`source` names it in errors).
  public static func parse(_ data: Data, source: String) throws -> WorldConfig { try merged(data, source: source) }

  /// The defaults with the file's values laid over them, so a world file
  /// names only what it changes; a key the world does not have is an error.
  static func merged(_ data: Data, source: String) throws -> WorldConfig {
    try JSONOverlay.decode(data, over: WorldConfig(), source: source, kind: "world file")
  }

  /// A short hash of every number, printed with each benchmark table.
  public var hash: String { JSONOverlay.hash(self) }
}

import Domain
import Foundation
import Geofencing

/// `whilehere-sim replay --report FILE.html`: one self-contained page (no
/// network, no tiles) with the track drawn to scale, the regions the engine
/// had installed at each moment, precise sessions, fires and the true
/// inside intervals, and a time slider that moves through them.
public struct ReplayReport {
  public struct Line: Sendable {
    public let second: Int
    public let text: String

    public init(second: Int, text: String) {
      self.second = second
      self.text = text
    }
  }

  var plans: [(second: Int, regions: [PlannedRegion])] = []
  var sessions: [(start: Int, end: Int?, zone: String)] = []
  var lines: [Line] = []

  public init() {}

  /// Takes one observation of the run (and its timeline line, if any).
  public mutating func observe(_ observation: PhoneObservation, at second: Int, line: String?) {
    if let line { lines.append(Line(second: second, text: line)) }
    guard case .engine(let event) = observation else { return }
    switch event {
    case .planned(let plan, _, _, _): plans.append((second, plan.regions))
    case .sessionStarted(let zone, _, _): sessions.append((second, nil, zone))
    case .sessionStopped:
      if let open = sessions.lastIndex(where: { $0.end == nil }) { sessions[open].end = second }
    default: break
    }
  }

  /// The page. `taskName` names a place's task for the legend and fires.
  public func html(trip: Trip, places: PlaceSet, run: StrategyRun, title: String, taskName: (Int) -> String) throws -> String {
    let step = max(1, trip.positions.count / 4000)
    let truth = GroundTruth(trip: trip, places: places)
    func round(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }
    func point(_ latitude: Double, _ longitude: Double) -> JSONValue { .array([.number(round(latitude)), .number(round(longitude))]) }
    func number(_ value: Int) -> JSONValue { .number(Double(value)) }
    let data: JSONValue = .object([
      "title": .string(title),
      "start": .string(ISO8601DateFormatter().string(from: trip.start)),
      "duration": number(trip.positions.count),
      "step": number(step),
      "track": .array(stride(from: 0, to: trip.positions.count, by: step).map { point(trip.positions[$0].latitude, trip.positions[$0].longitude) }),
      "places": .array(
        places.places.map {
          .object([
            "name": .string($0.name), "lat": .number($0.center.latitude), "lon": .number($0.center.longitude), "r": .number($0.radius),
            "task": .string(taskName($0.id)),
          ])
        }),
      "plans": .array(
        plans.map { plan in
          .object([
            "t": number(plan.second),
            "regions": .array(
              plan.regions.map {
                .object([
                  "id": .string($0.id), "kind": .string($0.kind.rawValue), "lat": .number($0.center.latitude), "lon": .number($0.center.longitude),
                  "r": .number($0.radius),
                ])
              }),
          ])
        }),
      "sessions": .array(
        sessions.map { .object(["start": number($0.start), "end": number($0.end ?? trip.positions.count), "zone": .string($0.zone)]) }),
      "fires": .array(
        run.fires.map { .object(["t": number($0.second), "place": .string(places.places[$0.place].name), "task": .string(taskName($0.place))]) }),
      "inside": .array(
        truth.episodes.map { episode in
          let place = places.places.first { places.taskOf[$0.id] == episode.task }?.id ?? 0
          return .object([
            "task": .string(taskName(place)), "enter": number(episode.enter), "leave": number(episode.leave), "kind": .string(episode.kind.rawValue),
          ])
        }),
      "lines": .array(lines.map { .object(["t": number($0.second), "text": .string($0.text)]) }),
    ])
    let json = data.compactText
      // Inside a <script> element, "</" would end it.
      .replacingOccurrences(of: "</", with: "<\\/")
    return Self.page.replacingOccurrences(of: "/*DATA*/", with: json)
  }

  static let page = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>WhileHere replay</title>
    <style>
    body{font:14px system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
    header{padding:10px 16px;background:#fff;border-bottom:1px solid #ddd}
    h1{font-size:17px;margin:0 0 4px}
    #wrap{display:flex;gap:12px;padding:12px 16px}
    #map{background:#fff;border:1px solid #ddd;flex:0 0 auto}
    #side{flex:1;min-width:260px}
    #log{height:420px;overflow:auto;background:#fff;border:1px solid #ddd;padding:6px;font:12px ui-monospace,monospace;white-space:pre-wrap}
    #controls{padding:0 16px}
    #slider{width:calc(100% - 100px);margin:0 0 0 100px;box-sizing:border-box}
    .legend span{display:inline-block;margin-right:12px}
    .sw{display:inline-block;width:12px;height:12px;vertical-align:middle;margin-right:4px;border-radius:2px}
    #now{font-weight:600}
    </style></head><body>
    <header><h1 id="title"></h1><div class="legend">
    <span><i class="sw" style="background:#1f77b4"></i>track (darker: already walked)</span>
    <span><i class="sw" style="background:#2ca02c55;border:1px solid #2ca02c"></i>place (radius)</span>
    <span><i class="sw" style="background:#ff7f0e33;border:1px solid #ff7f0e"></i>region installed now</span>
    <span><i class="sw" style="background:#d62728"></i>reminder fired</span>
    <span><i class="sw" style="background:#9467bd"></i>precise session</span>
    </div></header>
    <div id="controls"><p><span id="now"></span> — drag the slider or use the arrow keys</p>
    <input id="slider" type="range" min="0" value="0" step="1" aria-label="time">
    <svg id="timeline" width="100%" height="70"></svg></div>
    <div id="wrap"><svg id="map" width="720" height="520"></svg><div id="side"><b>What happened until now</b><div id="log"></div></div></div>
    <script>
    const D = /*DATA*/;
    const NS = "http://www.w3.org/2000/svg";
    const el = (name, attrs, parent) => { const e = document.createElementNS(NS, name); for (const k in attrs) e.setAttribute(k, attrs[k]); if (parent) parent.appendChild(e); return e; };
    document.getElementById("title").textContent = D.title;
    const map = document.getElementById("map"), W = 720, H = 520, pad = 20;
    const lats = D.track.map(p => p[0]).concat(D.places.map(p => p.lat)), lons = D.track.map(p => p[1]).concat(D.places.map(p => p.lon));
    const lat0 = Math.min(...lats), lat1 = Math.max(...lats), lon0 = Math.min(...lons), lon1 = Math.max(...lons);
    const k = Math.cos((lat0 + lat1) / 2 * Math.PI / 180);
    const mPerDeg = 111195, spanX = Math.max((lon1 - lon0) * k * mPerDeg, 50), spanY = Math.max((lat1 - lat0) * mPerDeg, 50);
    const scale = Math.min((W - 2 * pad) / spanX, (H - 2 * pad) / spanY);
    const X = lon => pad + (lon - lon0) * k * mPerDeg * scale, Y = lat => H - pad - (lat - lat0) * mPerDeg * scale;
    const bar = el("g", {}, map);
    el("rect", {x: W - 130, y: H - 18, width: Math.min(100, 1000 * scale), height: 3, fill: "#555"}, bar);
    el("text", {x: W - 130, y: H - 22, "font-size": 11, fill: "#555"}, bar).textContent = Math.round(Math.min(100, 1000 * scale) / scale) + " m";
    const placeLayer = el("g", {}, map), regionLayer = el("g", {}, map), trackLayer = el("g", {}, map), fireLayer = el("g", {}, map);
    for (const p of D.places) {
      el("circle", {cx: X(p.lon), cy: Y(p.lat), r: Math.max(2, p.r * scale), fill: "#2ca02c33", stroke: "#2ca02c"}, placeLayer);
      el("text", {x: X(p.lon) + 4, y: Y(p.lat) - 4, "font-size": 11, fill: "#1a661a"}, placeLayer).textContent = p.name + (p.task !== p.name ? " (" + p.task + ")" : "");
    }
    const pts = D.track.map(p => X(p[1]).toFixed(1) + "," + Y(p[0]).toFixed(1));
    el("polyline", {points: pts.join(" "), fill: "none", stroke: "#1f77b455", "stroke-width": 2}, trackLayer);
    const walked = el("polyline", {fill: "none", stroke: "#1f77b4", "stroke-width": 2.5}, trackLayer);
    const me = el("circle", {r: 6, fill: "#1f77b4", stroke: "#fff", "stroke-width": 2}, trackLayer);
    const tl = document.getElementById("timeline"), TW = () => tl.clientWidth || 800;
    const slider = document.getElementById("slider"); slider.max = D.duration - 1;
    function drawTimeline() {
      tl.innerHTML = ""; const w = TW(), left = 100, x = t => left + t / D.duration * (w - left);
      el("rect", {x: 0, y: 0, width: w, height: 70, fill: "#fff", stroke: "#ddd"}, tl);
      for (const s of D.inside) el("rect", {x: x(s.enter), y: 8, width: Math.max(2, x(s.leave) - x(s.enter)), height: 14, fill: "#2ca02c"}, tl);
      for (const s of D.sessions) el("rect", {x: x(s.start), y: 28, width: Math.max(2, x(s.end) - x(s.start)), height: 14, fill: "#9467bd"}, tl);
      for (const f of D.fires) el("rect", {x: x(f.t) - 1, y: 48, width: 3, height: 16, fill: "#d62728"}, tl);
      const labels = [["inside a place", 19], ["precise session", 39], ["fires", 60]];
      for (const [text, y] of labels) el("text", {x: 4, y, "font-size": 10, fill: "#444"}, tl).textContent = text;
      tl.cursor = el("rect", {x: 0, y: 0, width: 2, height: 70, fill: "#000"}, tl);
    }
    function fmt(t) { const d = new Date(Date.parse(D.start) + t * 1000); return d.toISOString().replace("T", " ").slice(0, 19) + " UTC"; }
    function show(t) {
      const i = Math.min(D.track.length - 1, Math.floor(t / D.step));
      walked.setAttribute("points", pts.slice(0, i + 1).join(" "));
      me.setAttribute("cx", X(D.track[i][1])); me.setAttribute("cy", Y(D.track[i][0]));
      regionLayer.innerHTML = "";
      let plan = null; for (const p of D.plans) { if (p.t <= t) plan = p; else break; }
      if (plan) for (const r of plan.regions) el("circle", {cx: X(r.lon), cy: Y(r.lat), r: Math.max(2, r.r * scale), fill: r.kind === "edge" ? "none" : "#ff7f0e22", stroke: "#ff7f0e", "stroke-dasharray": r.kind === "arrival" ? "" : "4 3"}, regionLayer);
      fireLayer.innerHTML = "";
      for (const f of D.fires) if (f.t <= t) { const p = D.places.find(q => q.name === f.place); if (p) el("circle", {cx: X(p.lon), cy: Y(p.lat), r: 5, fill: "#d62728"}, fireLayer); }
      document.getElementById("now").textContent = fmt(t) + (plan ? " — " + plan.regions.length + " regions installed" : "");
      const log = document.getElementById("log");
      log.textContent = D.lines.filter(l => l.t <= t).slice(-200).map(l => fmt(l.t).slice(11, 19) + "  " + l.text).join("\\n");
      log.scrollTop = log.scrollHeight;
      if (tl.cursor) tl.cursor.setAttribute("x", 100 + t / D.duration * (TW() - 100));
    }
    slider.addEventListener("input", () => show(+slider.value));
    window.addEventListener("resize", () => { drawTimeline(); show(+slider.value); });
    drawTimeline();
    const firstFire = D.fires.length ? D.fires[0].t : Math.floor(D.duration / 2);
    slider.value = firstFire; show(firstFire);
    </script></body></html>
    """
}

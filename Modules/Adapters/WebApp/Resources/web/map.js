// The map: the offline basemap (or configured tiles), a task's places as
// circles with a draggable pin and a square handle for the radius, every
// task's places faintly, the regions the phone watches, the last position.
const L = window.L;
const HELSINKI = [60.1699, 24.9384];

export class TaskMap {
  constructor(element, config) {
    this.map = L.map(element, { zoomControl: false, attributionControl: false }).setView(HELSINKI, 15);
    L.control.zoom({ position: "topright" }).addTo(this.map);
    this.layers = {
      tasks: L.layerGroup().addTo(this.map), plan: L.layerGroup(), places: L.layerGroup().addTo(this.map),
      candidates: L.layerGroup().addTo(this.map), me: L.layerGroup().addTo(this.map),
    };
    if (config.tiles) {
      L.tileLayer(config.tiles, { maxZoom: 19, attribution: config.attribution || "" }).addTo(this.map);
    } else {
      this.drawBasemap();
    }
  }

  async drawBasemap() {
    const response = await fetch("basemap.geojson");
    if (!response.ok) return;
    const data = await response.json();
    const style = { major: { color: "#d9c9a3", weight: 5 }, minor: { color: "#ffffff", weight: 3 }, path: { color: "#e2dccf", weight: 1.5, dashArray: "3 3" } };
    const renderer = L.canvas({ padding: 0.5 });
    L.geoJSON(data, { renderer, interactive: false, style: (feature) => ({ ...(style[feature.properties.k] || style.minor), renderer }) }).addTo(this.map);
    this.attribution = data.attribution;
  }

  get center() {
    const point = this.map.getCenter();
    return { lat: point.lat, lon: point.lng };
  }

  onClick(handler) { this.map.on("click", (event) => handler(event.latlng.lat, event.latlng.lng)); }

  /// Every task's places, faint; the selected task's in full, editable.
  showTasks(tasks, selected, callbacks) {
    this.layers.tasks.clearLayers();
    for (const task of tasks) {
      if (selected && task.id === selected.id) continue;
      if (task.state === "completed") continue;
      for (const location of task.locations) {
        if (location.lat == null) continue;
        L.circle([location.lat, location.lon], { radius: location.radius, color: "#7a8799", weight: 1, fillOpacity: 0.08, interactive: false })
          .addTo(this.layers.tasks);
      }
    }
    if (selected) this.showEditable(selected, callbacks);
  }

  showEditable(task, callbacks) {
    const bounds = [];
    for (const location of task.locations) {
      if (location.lat == null) continue;
      const center = L.latLng(location.lat, location.lon);
      bounds.push(center);
      const circle = L.circle(center, { radius: location.radius, color: "#0b6bcb", weight: 2, fillOpacity: 0.15 }).addTo(this.layers.tasks);
      const label = (location.place && location.place.name) || `place ${location.number}`;
      const pin = L.marker(center, { draggable: true, title: `${task.title}: ${label}`, alt: label, keyboard: true }).addTo(this.layers.tasks);
      const handle = L.marker(this.east(center, location.radius), {
        draggable: true, title: `Radius of ${label}`, keyboard: true,
        icon: L.divIcon({ className: "radius-handle", iconSize: [14, 14] }),
      }).addTo(this.layers.tasks);
      handle.getElement()?.setAttribute("data-location", location.id);
      pin.getElement()?.setAttribute("data-location", location.id);
      for (const marker of [pin, handle]) {
        marker.on("dragstart", () => { this.dragging = true; });
        marker.on("dragend", () => { this.dragging = false; });
      }
      pin.on("drag", (event) => {
        circle.setLatLng(event.latlng);
        handle.setLatLng(this.east(event.latlng, circle.getRadius()));
      });
      pin.on("dragend", () => callbacks.moved(location.id, pin.getLatLng().lat, pin.getLatLng().lng));
      handle.on("drag", (event) => circle.setRadius(Math.max(25, Math.min(10000, circle.getLatLng().distanceTo(event.latlng)))));
      handle.on("dragend", () => callbacks.resized(location.id, Math.round(circle.getRadius())));
    }
    return bounds;
  }

  focus(task) {
    const points = task.locations.filter((l) => l.lat != null).map((l) => L.latLng(l.lat, l.lon).toBounds(l.radius * 2));
    if (points.length === 0) return;
    const bounds = points.reduce((all, b) => all.extend(b), L.latLngBounds(points[0].getSouthWest(), points[0].getNorthEast()));
    this.map.fitBounds(bounds.pad(0.3), { ...this.uncovered(), animate: !matchMedia("(prefers-reduced-motion: reduce)").matches, maxZoom: 17 });
  }

  /// A point `meters` east of `center`.
  east(center, meters) {
    const lat = center.lat;
    const degrees = meters / (111320 * Math.cos((lat * Math.PI) / 180));
    return L.latLng(lat, center.lng + degrees);
  }

  /// Saved places as dots; the chosen one larger. A dot opens its place.
  showPlaces(places, chosen, open) {
    this.layers.places.clearLayers();
    for (const place of places) {
      if (place.lat == null) continue;
      const selected = chosen && chosen.id === place.id;
      L.circleMarker([place.lat, place.lon], {
        radius: selected ? 9 : 5, color: "#fff", weight: 1.5, fillColor: selected ? "#d9480f" : "#2f9e44", fillOpacity: 0.95,
      }).bindTooltip(place.name).on("click", (event) => { L.DomEvent.stopPropagation(event); open(place); }).addTo(this.layers.places);
    }
  }

  /// An import row's candidates, numbered as the card lists them.
  showCandidates(candidates) {
    this.layers.candidates.clearLayers();
    for (const candidate of candidates) {
      L.marker([candidate.lat, candidate.lon], {
        title: `${candidate.number}. ${candidate.name}`, alt: candidate.name,
        icon: L.divIcon({ className: "candidate-pin", html: String(candidate.number), iconSize: [22, 22] }),
      }).addTo(this.layers.candidates);
    }
    if (candidates.length) {
      this.map.fitBounds(L.latLngBounds(candidates.map((c) => [c.lat, c.lon])).pad(0.5), { ...this.uncovered(), maxZoom: 17, animate: false });
    }
  }

  showPlan(plan, visible) {
    this.layers.plan.clearLayers();
    if (!visible) { this.layers.plan.remove(); return; }
    for (const region of plan.regions) {
      L.circle([region.latitude, region.longitude], { radius: region.radius, color: "#6c3fb5", weight: 1.5, dashArray: "6 4", fill: false, interactive: false })
        .addTo(this.layers.plan);
    }
    this.layers.plan.addTo(this.map);
  }

  showMe(fix) {
    this.layers.me.clearLayers();
    if (!fix) return;
    L.circleMarker([fix.latitude, fix.longitude], { radius: 7, color: "#fff", weight: 2, fillColor: "#1a73e8", fillOpacity: 1, interactive: false })
      .addTo(this.layers.me);
  }

  keepInView(lat, lon) {
    const { paddingTopLeft: topLeft, paddingBottomRight: bottomRight } = this.uncovered();
    const seen = L.latLngBounds(this.map.containerPointToLatLng(topLeft), this.map.containerPointToLatLng(this.map.getSize().subtract(bottomRight)));
    if (!seen.pad(-0.2).contains([lat, lon])) this.panTo(lat, lon);
  }

  /// Puts the point in the middle of the part of the map the card leaves uncovered.
  panTo(lat, lon) {
    const { paddingTopLeft: topLeft, paddingBottomRight: bottomRight } = this.uncovered();
    const zoom = this.map.getZoom();
    const offset = topLeft.subtract(bottomRight).divideBy(2);
    this.map.setView(this.map.unproject(this.map.project([lat, lon], zoom).subtract(offset), zoom), zoom, { animate: false });
  }

  /// Leaflet's padding for the part of the map the card covers: along the
  /// bottom on a phone, down the left on a wider screen. What is shown
  /// (a task's places, an import row's candidates, the phone) goes in the
  /// rest, not under the card.
  uncovered() {
    const margin = 16;
    const map = this.map.getContainer().getBoundingClientRect();
    const card = document.getElementById("card")?.getBoundingClientRect();
    if (!card || card.width === 0 || card.height === 0) return { paddingTopLeft: L.point(margin, margin), paddingBottomRight: L.point(margin, margin) };
    if (card.top > map.top + map.height / 3) {
      // The attribution sits at the top on a phone.
      return { paddingTopLeft: L.point(margin, 2 * margin), paddingBottomRight: L.point(margin, Math.max(margin, map.bottom - card.top + margin)) };
    }
    return { paddingTopLeft: L.point(Math.max(margin, card.right - map.left + margin), margin), paddingBottomRight: L.point(margin, margin) };
  }
}

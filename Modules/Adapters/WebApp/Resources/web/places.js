import { api } from "./api.js";
import { $, item, page, row, show, state } from "./ui.js";

// Saved places: search, one list, several lists combined, A–Z or nearest.
// The card keeps the query, the lists, the order and the scroll position
// while a place is open, and returns to them.
export async function refreshPlaces() {
  const [places, lists] = await Promise.all([api.places(), api.lists()]);
  state.places = places;
  state.lists = lists;
  const scope = $("place-scope");
  const chosen = scope.value;
  for (const option of [...scope.options].slice(2)) option.remove();
  for (const list of lists) scope.append(new Option(`List: ${list.name}`, `list:${list.id}`));
  scope.value = [...scope.options].some((option) => option.value === chosen) ? chosen : "all";
  show($("list-delete"), scope.value.startsWith("list:"));
  const boxes = $("combined-lists");
  const ticked = new Set([...boxes.querySelectorAll("input:checked")].map((box) => box.value));
  boxes.replaceChildren(boxes.querySelector("legend") || document.createElement("legend"));
  for (const list of lists) {
    const label = document.createElement("label");
    label.className = "inline";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = list.id;
    box.checked = ticked.has(list.id);
    box.addEventListener("change", () => renderPlaces());
    label.append(box, document.createTextNode(` ${list.name}`));
    boxes.append(label);
  }
  renderLibrary(lists);
  if (state.chosenPlace) showPlace(places.find((place) => place.id === state.chosenPlace.id) || state.chosenPlace);
  else renderPlaces();
}

// The list library: every list with how many places it holds; choosing
// one puts it in focus above (the same as picking it under Lists).
function renderLibrary(lists) {
  const library = $("list-library");
  library.replaceChildren();
  if (lists.length === 0) library.append(item("No lists yet (a place's card adds one, and imports make one per file)."));
  for (const list of [...lists].sort((a, b) => a.name.localeCompare(b.name))) {
    const count = list.places.length;
    library.append(row(list.name, `${count} ${count === 1 ? "place" : "places"}`, { list: list.id }, () => {
      const scope = $("place-scope");
      scope.value = `list:${list.id}`;
      scope.dispatchEvent(new Event("change"));
      $("place-list").parentElement.scrollTop = 0;
      scope.focus();
    }));
  }
}

function fold(text) { return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }

function visiblePlaces() {
  const query = fold($("place-query").value.trim());
  const scope = $("place-scope").value;
  let members = null;
  if (scope.startsWith("list:")) members = new Set((state.lists.find((list) => list.id === scope.slice(5)) || { places: [] }).places);
  if (scope === "combined") {
    const chosen = new Set([...$("combined-lists").querySelectorAll("input:checked")].map((box) => box.value));
    members = new Set(state.lists.filter((list) => chosen.has(list.id)).flatMap((list) => list.places));
  }
  let places = state.places.filter((place) => (!members || members.has(place.id))
    && (!query || fold(place.name).includes(query) || place.tags.some((tag) => fold(tag).includes(query))));
  if ($("place-order").value === "nearest" && state.origin) {
    const here = L.latLng(state.origin.lat, state.origin.lon);
    const away = (place) => (place.lat == null ? Infinity : here.distanceTo([place.lat, place.lon]));
    places = places.map((place) => ({ ...place, away: away(place) })).sort((a, b) => a.away - b.away);
  } else {
    places = [...places].sort((a, b) => a.name.localeCompare(b.name));
  }
  return places;
}

export function renderPlaces() {
  const places = visiblePlaces();
  const list = $("place-list");
  list.replaceChildren();
  $("place-count").textContent = `${places.length} of ${state.places.length} ${state.places.length === 1 ? "place" : "places"}`;
  if (state.places.length === 0) list.append(item("No saved places yet (whilehere place add, or import a list)."));
  for (const place of places) {
    const parts = [];
    if (place.away != null && isFinite(place.away)) parts.push(place.away < 1000 ? `${Math.round(place.away)} m` : `${(place.away / 1000).toFixed(1)} km`);
    if (place.lists && place.lists.length) parts.push(place.lists.join(", "));
    if (place.tags.length) parts.push(place.tags.map((tag) => `#${tag}`).join(" "));
    list.append(row(place.name, parts.join(" · "), { place: place.id }, () => {
      state.placeScroll = $("place-list").parentElement.scrollTop;
      showPlace(place);
    }));
  }
  page.map.showPlaces(places, null, showPlace);
}

function showPlace(place) {
  state.chosenPlace = place;
  if ($("view-place").hidden) page.open("place");
  $("place-name").textContent = place.name;
  const facts = $("place-facts");
  facts.replaceChildren();
  const rows = [
    ["Address", place.address],
    ["Where", place.lat == null ? "unknown" : `${place.lat.toFixed(5)}, ${place.lon.toFixed(5)}`],
    ["Lists", place.lists && place.lists.length ? place.lists.join(", ") : "none"],
    ["Tags", place.tags.length ? place.tags.map((tag) => `#${tag}`).join(" ") : "none"],
    ["Note", place.note],
  ];
  for (const [term, value] of rows) {
    if (!value) continue;
    const dt = document.createElement("dt"); dt.textContent = term;
    const dd = document.createElement("dd"); dd.textContent = value;
    facts.append(dt, dd);
  }
  page.map.showPlaces(visiblePlaces(), place, showPlace);
  if (place.lat != null) page.map.panTo(place.lat, place.lon);
  fillEditor(place);
}

// The place's own data and its lists, edited on its card.
function fillEditor(place) {
  $("place-edit-name").value = place.name;
  $("place-edit-note").value = place.note || "";
  $("place-edit-tags").value = place.tags.join(", ");
  $("place-edit-new-list").value = "";
  const boxes = $("place-edit-lists");
  boxes.replaceChildren(boxes.querySelector("legend"));
  for (const list of state.lists) {
    const label = document.createElement("label");
    label.className = "inline";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = list.id;
    box.checked = list.places.includes(place.id);
    label.append(box, document.createTextNode(` ${list.name}`));
    boxes.append(label);
  }
}

export async function savePlace() {
  const place = state.chosenPlace;
  const tags = $("place-edit-tags").value.split(",").map((tag) => tag.trim()).filter(Boolean);
  const fold = (tag) => tag.toLowerCase();
  const had = place.tags.map(fold);
  await api.editPlace(place.id, {
    name: $("place-edit-name").value,
    note: $("place-edit-note").value,
    addTags: tags.filter((tag) => !had.includes(fold(tag))),
    removeTags: place.tags.filter((tag) => !tags.map(fold).includes(fold(tag))),
  });
  for (const box of $("place-edit-lists").querySelectorAll("input")) {
    const member = (state.lists.find((list) => list.id === box.value) || { places: [] }).places.includes(place.id);
    if (box.checked && !member) await api.addToList(box.value, place.id);
    if (!box.checked && member) await api.removeFromList(box.value, place.id);
  }
  const newList = $("place-edit-new-list").value.trim();
  if (newList) {
    const made = await api.createList(newList);
    await api.addToList(made.id, place.id);
  }
  await refreshPlaces();
}

// Nearest is measured from one snapshot taken when it is chosen: the
// browser's position if it gives one, else the phone's last report, else
// the map's centre; the card says which.
export async function order() {
  if ($("place-order").value !== "nearest") { $("place-order-note").textContent = ""; renderPlaces(); return; }
  $("place-order-note").textContent = "Finding where you are…";
  const browser = await new Promise((resolve) => {
    if (!navigator.geolocation) { resolve(null); return; }
    navigator.geolocation.getCurrentPosition((position) => resolve(position.coords), () => resolve(null), { timeout: 4000, maximumAge: 60000 });
  });
  // The phone's position as it is now, not as the last refresh saw it.
  if (!browser) state.lastFix = (await api.status().catch(() => ({}))).lastFix || state.lastFix;
  if (browser) {
    state.origin = { lat: browser.latitude, lon: browser.longitude };
    $("place-order-note").textContent = "Nearest to where this browser is now.";
  } else if (state.lastFix) {
    state.origin = { lat: state.lastFix.latitude, lon: state.lastFix.longitude };
    $("place-order-note").textContent = `The browser gave no location, so nearest to your phone's last report (${new Date(state.lastFix.at * 1000).toLocaleString()}).`;
  } else {
    state.origin = page.map.center;
    $("place-order-note").textContent = "The browser gave no location and the phone has not reported, so nearest to the map's centre.";
  }
  renderPlaces();
}

export function remindHere(place) {
  state.chosenPlace = null;
  state.selected = null;
  page.open("tasks");
  state.mapPlaces = [{ at: place.id, label: place.name }];
  $("suggestion-list").replaceChildren(item(`${place.name} (saved place)`));
  $("suggestions-note").textContent = "Type the task above; Suggest places adds more choices, or click the map.";
  show($("suggestions"), true);
  $("new-title").focus();
}

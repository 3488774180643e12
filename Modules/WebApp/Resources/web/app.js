// The page: one map, one card that changes between sign-in, the task list,
// one task, reminders and the phone. Everything goes through the API.
import { api, session, signIn, signOut, APIError } from "./api.js";
import { TaskMap } from "./map.js";

const $ = (id) => document.getElementById(id);
// Also on window, so the browser test can read what the page holds.
const state = window.__whilehere = { person: null, tasks: [], selected: null, suggestions: [], mapPlaces: [], lastFix: null, listScroll: 0, places: [], lists: [] };
let map;

function show(element, visible) { element.hidden = !visible; }
function say(text) { $("message").textContent = text || ""; }

function failure(error) {
  if (error instanceof APIError && error.status === 401) { signedOut(); return; }
  say(error.message || String(error));
}

async function start() {
  if (document.documentElement.dataset.missing || !window.L) {
    $("card").textContent = document.documentElement.dataset.missing || "The map library did not load.";
    return;
  }
  const config = await api.config().catch(() => ({ tiles: "" }));
  map = new TaskMap($("map"), config);
  $("attribution").textContent = config.tiles ? config.attribution || "" : "Streets © OpenStreetMap contributors, ODbL";
  map.onClick((lat, lon) => addPlaceAt(lat, lon).catch(failure));
  wire();
  if (config.demo) {
    // whilehered --demo: the demo person's name is also its password.
    $("sign-in-name").value = config.demo;
    $("sign-in-password").value = config.demo;
    $("sign-in").querySelector("p").textContent = `Live demo: sign in as ${config.demo} (password ${config.demo}) and watch the phone walk through central Helsinki.`;
    $("show-plan").checked = true;
    state.follow = true;
  }
  setInterval(() => { if (state.person && document.visibilityState === "visible") live().catch(() => {}); }, 2500);
  const person = await session().catch(() => null);
  person ? signedIn(person) : signedOut();
}

function wire() {
  $("sign-in").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("sign-in-error").textContent = "";
    try {
      signedIn(await signIn($("sign-in-name").value, $("sign-in-password").value));
      $("sign-in-password").value = "";
    } catch (error) {
      $("sign-in-error").textContent = error.message;
    }
  });
  $("sign-out").addEventListener("click", async () => {
    await signOut().catch(() => {});
    signedOut();
  });
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => open(tab.dataset.view));
  $("new-task").addEventListener("submit", (event) => { event.preventDefault(); suggest().catch(failure); });
  $("create-task").addEventListener("click", () => createTask().catch(failure));
  $("cancel-task").addEventListener("click", () => { show($("suggestions"), false); state.suggestions = []; state.mapPlaces = []; });
  $("show-plan").addEventListener("change", () => refreshPlan().catch(failure));
  $("back").addEventListener("click", () => { state.selected = null; open("tasks"); });
  $("place-back").addEventListener("click", () => { state.chosenPlace = null; open("places"); $("place-list").parentElement.scrollTop = state.placeScroll || 0; });
  $("place-query").addEventListener("input", () => renderPlaces());
  $("place-scope").addEventListener("change", () => { show($("combined-lists"), $("place-scope").value === "combined"); renderPlaces(); });
  $("place-order").addEventListener("change", () => order().catch(failure));
  $("place-remind").addEventListener("click", () => remindHere(state.chosenPlace));
  $("import-form").addEventListener("submit", (event) => { event.preventDefault(); startImport().catch(failure); });
  $("import-cancel").addEventListener("click", () => api.cancelImport().catch(failure));
  $("analytics-allow").addEventListener("click", () => welcomed({ analytics: "allowed" }));
  $("analytics-decline").addEventListener("click", () => welcomed({ analytics: "declined" }));
  $("welcome-start").addEventListener("click", () => welcomed({}));
  $("welcome-skip").addEventListener("click", () => welcomed({}));
  $("analytics-choice").addEventListener("change", async () => {
    try {
      state.preferences = await api.setPreferences({ analytics: $("analytics-choice").checked ? "allowed" : "declined" });
    } catch (error) { failure(error); }
  });
  $("done").addEventListener("click", async () => { await act("done"); await offerUndo(); });
  $("edit").addEventListener("click", () => {
    $("edit-title").value = state.selected.title;
    $("edit-notes").value = state.selected.notes || "";
    show($("edit-form"), true);
    $("edit-title").focus();
  });
  $("edit-cancel").addEventListener("click", () => show($("edit-form"), false));
  $("edit-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    await change(() => api.editTask(state.selected.id, { title: $("edit-title").value, notes: $("edit-notes").value }));
    show($("edit-form"), false);
    renderTasks();
  });
  $("toast-undo").addEventListener("click", async () => {
    const key = $("toast").dataset.key;
    show($("toast"), false);
    try {
      const entry = await api.undo(key);
      say(`Undone: ${entry.label}`);
      await refreshTasks();
      if (state.selected) renderTask();
    } catch (error) { failure(error); }
  });
  $("reopen").addEventListener("click", () => act("reopen"));
  $("later").addEventListener("click", () => act("later", { seconds: laterSeconds($("later-choice").value) }));
  // No "are you sure": the toast's Undo puts it back (and whilehere undo, for 30 days).
  $("delete").addEventListener("click", async () => {
    try {
      await api.deleteTask(state.selected.id);
      state.selected = null;
      await refreshTasks();
      open("tasks");
      await offerUndo();
    } catch (error) { failure(error); }
  });
}

// Saved places: search, one list, several lists combined, A–Z or nearest.
// The card keeps the query, the lists, the order and the scroll position
// while a place is open, and returns to them.
async function refreshPlaces() {
  const [places, lists] = await Promise.all([api.places(), api.lists()]);
  state.places = places;
  state.lists = lists;
  const scope = $("place-scope");
  const chosen = scope.value;
  for (const option of [...scope.options].slice(2)) option.remove();
  for (const list of lists) scope.append(new Option(`List: ${list.name}`, `list:${list.id}`));
  scope.value = [...scope.options].some((option) => option.value === chosen) ? chosen : "all";
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
  if (state.chosenPlace) showPlace(places.find((place) => place.id === state.chosenPlace.id) || state.chosenPlace);
  else renderPlaces();
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

function renderPlaces() {
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
  map.showPlaces(places, null, showPlace);
}

function showPlace(place) {
  state.chosenPlace = place;
  if ($("view-place").hidden) open("place");
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
  map.showPlaces(visiblePlaces(), place, showPlace);
  if (place.lat != null) map.panTo(place.lat, place.lon);
}

// Nearest is measured from one snapshot taken when it is chosen: the
// browser's position if it gives one, else the phone's last report, else
// the map's centre; the card says which.
async function order() {
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
    state.origin = map.center;
    $("place-order-note").textContent = "The browser gave no location and the phone has not reported, so nearest to the map's centre.";
  }
  renderPlaces();
}

function remindHere(place) {
  state.chosenPlace = null;
  state.selected = null;
  open("tasks");
  state.mapPlaces = [{ at: place.id, label: place.name }];
  $("suggestion-list").replaceChildren(item(`${place.name} (saved place)`));
  $("suggestions-note").textContent = "Type the task above; Suggest places adds more choices, or click the map.";
  show($("suggestions"), true);
  $("new-title").focus();
}

// Import: upload, watch, cancel; then the rows it could not settle alone,
// each with its candidates on the map (accept one, search with other
// words, enter the place on the map, or reject the row).
async function startImport() {
  const file = $("import-file").files[0];
  if (!file) return;
  $("import-summary").textContent = "";
  await api.startImport(file, $("import-list").value.trim());
  await watchImport();
}

async function watchImport() {
  for (;;) {
    const status = await api.importStatus();
    show($("import-running"), status.state === "running");
    $("import-progress").max = Math.max(1, status.total);
    $("import-progress").value = status.done;
    $("import-count").textContent = `${status.done} of ${status.total} rows`;
    if (status.state !== "running") { describeImport(status); await refreshReview(); return; }
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

function describeImport(status) {
  const text = {
    finished: `Imported ${status.done} rows into “${status.list}”: ${status.matched} matched, ${status.needsReview} to review, ${status.unresolved} without a candidate${status.skipped ? `, ${status.skipped} entries that are not places left out` : ""}.`,
    cancelled: `Cancelled: ${status.error}`,
    failed: `The import failed: ${status.error}`,
  }[status.state];
  $("import-summary").textContent = text || "";
}

async function refreshImport() {
  const status = await api.importStatus();
  if (status.state === "running") { watchImport().catch(failure); return; }
  describeImport(status);
  await refreshReview();
}

async function refreshReview() {
  const rows = await api.review();
  const list = $("review-list");
  list.replaceChildren();
  $("review-note").textContent = rows.length ? `${rows.length} ${rows.length === 1 ? "row needs" : "rows need"} a decision.` : "Nothing to review.";
  for (const row of rows.slice(0, 50)) list.append(reviewRow(row));
  if (rows.length > 50) list.append(item(`… and ${rows.length - 50} more after these.`));
}

function reviewRow(row) {
  const li = document.createElement("li");
  li.className = "review-row";
  li.dataset.row = row.id;
  const title = document.createElement("strong");
  title.textContent = row.title;
  const where = document.createElement("span");
  where.className = "state";
  where.textContent = `${row.list || ""} · ${row.source}:${row.line}${row.note ? ` · ${row.note}` : ""}`;
  li.append(title, " ", where);
  const decide = (decision) => async () => {
    try { await api.decide(row.id, decision); map.showCandidates([]); await refreshReview(); } catch (error) { failure(error); }
  };
  if (row.candidates.length) {
    const candidates = document.createElement("ol");
    candidates.className = "candidates";
    for (const candidate of row.candidates) {
      const entry = document.createElement("li");
      const text = document.createElement("span");
      text.textContent = `${candidate.number}. ${candidate.name} — ${candidate.category.replace("=", " ")}${candidate.address ? `, ${candidate.address}` : ""}`;
      const accept = small("Accept", `Accept ${candidate.name} for ${row.title}`, false, decide({ action: "accept", candidate: candidate.number }));
      entry.append(text, " ", accept);
      candidates.append(entry);
    }
    li.append(candidates, small("Show on the map", `Show the candidates for ${row.title} on the map`, false, () => map.showCandidates(row.candidates)));
  } else {
    li.append(document.createElement("br"), document.createTextNode("No candidate found. "));
  }
  const search = document.createElement("input");
  search.placeholder = "other words";
  search.setAttribute("aria-label", `Search again for ${row.title}`);
  li.append(
    document.createElement("br"), search,
    small("Search", `Search again for ${row.title}`, false, () => { if (search.value.trim()) decide({ action: "search", query: search.value.trim() })(); }),
    small("Enter on the map", `Enter ${row.title} by clicking the map`, false, () => {
      state.entering = row;
      say(`Click the map where “${row.title}” is.`);
    }),
    small("Reject", `Reject ${row.title}`, false, decide({ action: "reject" })),
  );
  return li;
}

async function enterAt(lat, lon) {
  const row = state.entering;
  state.entering = null;
  const name = prompt("Name of the place", row.title);
  if (!name) { say(""); return; }
  await api.decide(row.id, { action: "enter", name, lat, lon });
  say(`Saved “${name}” where you clicked.`);
  await refreshReview();
}

// After a delete or Mark Done: what was done, and Undo, for a while.
async function offerUndo() {
  const [newest] = await api.undoList().catch(() => []);
  if (!newest) return;
  $("toast-text").textContent = newest.label;
  $("toast").dataset.key = newest.key;
  show($("toast"), true);
  clearTimeout(state.toastTimer);
  state.toastTimer = setTimeout(() => show($("toast"), false), 20000);
}

function age(seconds) {
  if (seconds < 90) return `${Math.max(0, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 129600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} days`;
}

function laterSeconds(choice) {
  const now = new Date();
  if (choice === "evening") {
    const evening = new Date(now); evening.setHours(18, 0, 0, 0);
    return evening > now ? Math.round((evening - now) / 1000) : 3 * 3600;
  }
  if (choice === "tomorrow") {
    const morning = new Date(now); morning.setDate(morning.getDate() + 1); morning.setHours(9, 0, 0, 0);
    return Math.round((morning - now) / 1000);
  }
  return Number(choice);
}

async function signedIn(person) {
  state.person = person;
  $("who").textContent = person;
  show($("sign-in"), false);
  show($("signed-in"), true);
  show($("sign-out"), true);
  const status = await api.status().catch(() => null);
  if (status && status.lastFix) { state.lastFix = status.lastFix; map.panTo(status.lastFix.latitude, status.lastFix.longitude); map.showMe(status.lastFix); }
  await refreshTasks().catch(failure);
  const preferences = await api.preferences().catch(() => ({ welcomed: true }));
  state.preferences = preferences;
  if (!preferences.welcomed) { welcome(preferences); return; }
  open("tasks");
}

// First use: what places, lists and reminders are, and (when the operator
// collects usage counts) the choice, both answers equally easy to press.
function welcome(preferences) {
  show($("welcome-analytics"), preferences.analyticsOffered);
  show($("welcome-plain"), !preferences.analyticsOffered);
  for (const name of ["tasks", "task", "places", "place", "import", "reminders", "phone"]) show($(`view-${name}`), false);
  show(document.querySelector(".tabs"), false);
  show($("view-welcome"), true);
  $("view-welcome").querySelector("h2").setAttribute("tabindex", "-1");
  $("view-welcome").querySelector("h2").focus();
}

async function welcomed(change) {
  try {
    state.preferences = await api.setPreferences({ welcomed: true, ...change });
  } catch (error) { failure(error); return; }
  show($("view-welcome"), false);
  show(document.querySelector(".tabs"), true);
  open("tasks");
  $("new-title").focus();
}

function signedOut() {
  state.person = null; state.selected = null; state.tasks = [];
  $("who").textContent = "";
  show($("sign-in"), true);
  show($("signed-in"), false);
  show($("sign-out"), false);
  map.showTasks([], null, {});
  $("sign-in-name").focus();
}

function open(view) {
  const views = ["tasks", "task", "places", "place", "import", "reminders", "phone"];
  if (view === "tasks" && state.selected) view = "task";
  if (view === "places" && state.chosenPlace) view = "place";
  const parent = { task: "tasks", place: "places" };
  for (const name of views) show($(`view-${name}`), name === view);
  for (const tab of document.querySelectorAll(".tab")) tab.setAttribute("aria-pressed", String(tab.dataset.view === (parent[view] || view)));
  say("");
  if (view === "places" || view === "place") refreshPlaces().catch(failure); else map.showPlaces([], null, () => {});
  if (view === "import") refreshImport().catch(failure); else { map.showCandidates([]); state.entering = null; }
  if (view === "reminders") refreshEvents().catch(failure);
  if (view === "phone") refreshPhone().catch(failure);
  if (view === "task") renderTask();
  if (view === "tasks") { renderTasks(); $("task-list").parentElement.scrollTop = state.listScroll; }
}

// What changes without the person doing anything (the phone moves, a
// reminder fires, a snooze ends): redrawn only when it changed, and never
// under a pin being dragged.
async function live() {
  const [status, tasks] = await Promise.all([api.status(), api.tasks()]);
  if (status.lastFix && JSON.stringify(status.lastFix) !== JSON.stringify(state.lastFix)) {
    state.lastFix = status.lastFix;
    map.showMe(status.lastFix);
    // The demo keeps the walker in view; a real person's map stays where they put it.
    if (state.follow && !map.dragging) map.keepInView(status.lastFix.latitude, status.lastFix.longitude);
  }
  if (JSON.stringify(tasks) !== JSON.stringify(state.tasks) && !map.dragging) {
    state.tasks = tasks;
    if (state.selected) state.selected = tasks.find((task) => task.id === state.selected.id) || null;
    drawMap();
    if (!$("view-tasks").hidden) renderTasks();
    if (!$("view-task").hidden) renderTask();
  }
  if ($("show-plan").checked) await refreshPlan();
  if (!$("view-reminders").hidden) await refreshEvents();
  if (!$("view-phone").hidden) await refreshPhone();
}

async function refreshTasks() {
  state.tasks = await api.tasks();
  if (state.selected) state.selected = state.tasks.find((task) => task.id === state.selected.id) || null;
  drawMap();
  renderTasks();
  if (state.selected) renderTask();
  if ($("show-plan").checked) await refreshPlan();
}

function drawMap() {
  map.showTasks(state.tasks, state.selected, {
    moved: (location, lat, lon) => change(() => api.editLocation(state.selected.id, location, { lat, lon })),
    resized: (location, radius) => change(() => api.editLocation(state.selected.id, location, { radius })),
  });
}

async function change(request) {
  try {
    const task = await request();
    replace(task);
  } catch (error) {
    failure(error);
    await refreshTasks().catch(() => {});
  }
}

function replace(task) {
  state.tasks = state.tasks.map((each) => (each.id === task.id ? task : each));
  if (state.selected && state.selected.id === task.id) state.selected = task;
  drawMap();
  renderTask();
  if ($("show-plan").checked) refreshPlan().catch(failure);
}

function renderTasks() {
  const list = $("task-list");
  list.replaceChildren();
  const order = { active: 0, snoozed: 1, completed: 2 };
  const tasks = [...state.tasks].sort((a, b) => (order[a.state] ?? 3) - (order[b.state] ?? 3));
  if (tasks.length === 0) list.append(item("No tasks yet: type one above."));
  for (const task of tasks) {
    const places = `${task.locations.length} ${task.locations.length === 1 ? "place" : "places"}`;
    list.append(row(task.title, `${task.state} · ${places}`, { task: task.id }, () => {
      state.listScroll = $("task-list").parentElement.scrollTop;
      state.selected = task;
      drawMap();
      map.focus(task);
      open("task");
    }));
  }
}

/// A list row: one button with the name and, quieter, what else is known.
function row(name, detail, data, action) {
  const li = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "open";
  Object.assign(button.dataset, data);
  const title = document.createElement("span");
  title.className = "name";
  title.textContent = name;
  const quiet = document.createElement("span");
  quiet.className = "state";
  quiet.textContent = detail;
  button.append(title, " ", quiet);
  button.addEventListener("click", action);
  li.append(button);
  return li;
}

function renderTask() {
  const task = state.selected;
  if (!task) return;
  $("task-title").textContent = task.title;
  $("task-notes").textContent = task.notes || "";
  const until = task.snoozedUntil ? ` until ${new Date(task.snoozedUntil).toLocaleString()}` : "";
  $("task-state").textContent = `${task.state}${until}`;
  show($("done"), task.state !== "completed");
  show($("later"), task.state === "active");
  show($("later-choice").parentElement, task.state === "active");
  show($("reopen"), task.state !== "active");
  const list = $("location-list");
  list.replaceChildren();
  task.locations.forEach((location, index) => {
    const li = document.createElement("li");
    li.className = "location-row";
    li.dataset.location = location.id;
    const name = document.createElement("span");
    name.textContent = (location.place && location.place.name) || `${location.lat?.toFixed(5)}, ${location.lon?.toFixed(5)}`;
    const radius = document.createElement("label");
    radius.textContent = "Radius (m) ";
    const input = document.createElement("input");
    input.type = "number"; input.min = "25"; input.max = "10000"; input.value = Math.round(location.radius);
    input.className = "radius";
    input.addEventListener("change", () => change(() => api.editLocation(task.id, location.id, { radius: Number(input.value) })));
    radius.append(input);
    const buttons = document.createElement("span");
    buttons.append(
      small("↑", `Move ${name.textContent} up`, index === 0, () => change(() => api.editLocation(task.id, location.id, { priority: index }))),
      small("↓", `Move ${name.textContent} down`, index === task.locations.length - 1, () => change(() => api.editLocation(task.id, location.id, { priority: index + 2 }))),
      small("Remove", `Remove ${name.textContent}`, task.locations.length === 1, () => change(() => api.removeLocation(task.id, location.id))),
    );
    li.append(name, buttons, radius);
    list.append(li);
  });
}

function small(text, label, disabled, action) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "quiet";
  button.textContent = text;
  button.setAttribute("aria-label", label);
  button.disabled = disabled;
  button.addEventListener("click", action);
  return button;
}

function item(text) {
  const li = document.createElement("li");
  li.textContent = text;
  return li;
}

async function act(action, body) {
  await change(() => api.act(state.selected.id, action, body));
  await refreshTasks().catch(failure);
}

async function suggest() {
  const title = $("new-title").value.trim();
  if (!title) return;
  const kept = state.mapPlaces || [];
  const around = state.lastFix && !state.movedMap ? { lat: state.lastFix.latitude, lon: state.lastFix.longitude } : map.center;
  const found = await api.suggestions(title, around.lat, around.lon);
  state.suggestions = found;
  state.mapPlaces = kept;
  const list = $("suggestion-list");
  list.replaceChildren(...kept.map((point) => item(point.label || `A spot on the map at ${point.lat}, ${point.lon}`)));
  $("suggestions-note").textContent = found.length
    ? "Choose the places where this can be done (or click the map to add a spot):"
    : "No places nearby fit those words. Click the map to add a spot.";
  for (const suggestion of found) {
    const li = document.createElement("li");
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = suggestion.ref;
    box.dataset.ref = suggestion.ref;
    const open = suggestion.open === true ? ", open now" : suggestion.open === false ? ", closed now" : "";
    const text = document.createElement("span");
    text.textContent = `${suggestion.name} — ${suggestion.category.replace("=", " ")}, ${Math.round(suggestion.distance)} m${open}${suggestion.address ? ` · ${suggestion.address}` : ""}`;
    label.append(box, text);
    li.append(label);
    list.append(li);
  }
  show($("suggestions"), true);
}

async function createTask() {
  const title = $("new-title").value.trim();
  const chosen = [...document.querySelectorAll("#suggestion-list input:checked")].map((box) => ({ ref: box.dataset.ref }));
  const locations = chosen.concat(state.mapPlaces.map((point) => ({ at: point.at || `${point.lat},${point.lon}` })));
  if (locations.length === 0) { say("Choose at least one place, or click the map."); return; }
  const task = await api.addTask(title, locations);
  $("new-title").value = "";
  show($("suggestions"), false);
  state.mapPlaces = [];
  await refreshTasks();
  state.selected = state.tasks.find((each) => each.id === task.id) || task;
  drawMap();
  map.focus(state.selected);
  open("task");
}

async function addPlaceAt(lat, lon) {
  if (!state.person) return;
  if (state.entering) { await enterAt(lat, lon); return; }
  if (state.selected) {
    await change(() => api.addLocation(state.selected.id, { at: `${lat.toFixed(6)},${lon.toFixed(6)}` }));
  } else if (!$("suggestions").hidden) {
    state.mapPlaces.push({ lat: lat.toFixed(6), lon: lon.toFixed(6) });
    $("suggestion-list").append(item(`A spot on the map at ${lat.toFixed(5)}, ${lon.toFixed(5)}`));
  }
}

async function refreshPlan() {
  const visible = $("show-plan").checked;
  const plan = visible ? await api.plan() : { regions: [] };
  const key = JSON.stringify([visible, plan.regions]);
  if (key === state.planKey) return;
  state.planKey = key;
  map.showPlan(plan, visible);
}

// Fired reminders, newest first, with the same Mark Done / Remind Later
// answers the notification carried while the task is still waiting.
async function refreshEvents() {
  const [events, tasks] = await Promise.all([api.events(), api.tasks()]);
  // Redrawn only when something changed, so focus stays on a button being used.
  const key = JSON.stringify([events, tasks.map((task) => task.state)]);
  if (key === state.eventsKey && $("event-list").childElementCount > 0) return;
  state.eventsKey = key;
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const list = $("event-list");
  list.replaceChildren();
  const reminders = events.filter((event) => ["reminder", "suppressed", "failed"].includes(event.kind)).reverse();
  if (reminders.length === 0) list.append(item("No reminders yet. They appear here when you arrive at a task's place."));
  for (const event of reminders) {
    const li = item(`${new Date(event.at).toLocaleString()} — ${event.detail}${event.kind === "reminder" ? "" : ` (${event.kind})`}`);
    li.className = "reminder";
    const task = event.task && byId.get(event.task);
    if (task && task.state === "active") {
      const answer = (action) => async () => {
        try {
          await api.act(task.id, action);
          await refreshTasks();
          await refreshEvents();
        } catch (error) { failure(error); }
      };
      const done = small("Mark Done", `Mark “${task.title}” done`, false, answer("done"));
      const later = small("Remind Later", `Remind me later about “${task.title}”`, false, answer("later"));
      done.className = later.className = "";
      li.append(document.createElement("br"), done, later);
    } else if (task) {
      const note = document.createElement("span");
      note.className = "state";
      note.textContent = task.state;
      li.append(note);
    }
    list.append(li);
  }
}

async function refreshPhone() {
  const status = await api.status();
  const facts = $("phone-status");
  facts.replaceChildren();
  const rows = [
    ["Regions watched", `${status.regionsWatched} of ${status.capacity}`],
    ["Precise location today", `${Math.round(status.preciseSecondsUsed / 60)} min`],
    ["Last report", status.lastFix ? `${age(status.serverTime - status.lastFix.at)} ago (±${Math.round(status.lastFix.accuracy ?? 0)} m)` : "none yet"],
    ["Reminders delivered", String(status.deliveries.delivered)],
  ];
  rows.push(["What to look at", status.notes.length ? status.notes.join(" ") : "Nothing: the phone reports and reminders go out."]);
  for (const [term, value] of rows) {
    const dt = document.createElement("dt"); dt.textContent = term;
    const dd = document.createElement("dd"); dd.textContent = value;
    facts.append(dt, dd);
  }
  if (status.lastFix) map.showMe(status.lastFix);
  const preferences = state.preferences || {};
  show($("analytics-setting"), Boolean(preferences.analyticsOffered));
  $("analytics-choice").checked = preferences.analytics === "allowed";
}

start().catch((error) => { document.body.dataset.error = String(error); console.error(error); });

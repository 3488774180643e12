// The page: one map, one card that changes between sign-in, the task list,
// one task, reminders and the phone. Everything goes through the API.
import { api, session, signIn, signOut, APIError, StaleAnswer } from "./api.js";
import { TaskMap } from "./map.js";

import { $, item, page, row, say, show, small, state } from "./ui.js";
import { order, refreshPlaces, remindHere, renderPlaces, savePlace } from "./places.js";
import { enterAt, refreshImport, startImport } from "./importing.js";

let map;

function failure(error) {
  if (error instanceof StaleAnswer) return;
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
  page.map = map;
  page.open = open;
  page.failure = failure;
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
      // A second submit made the first one's answer stale: the second's counts.
      if (!(error instanceof StaleAnswer)) $("sign-in-error").textContent = error.message;
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
  $("place-scope").addEventListener("change", () => {
    show($("combined-lists"), $("place-scope").value === "combined");
    show($("list-delete"), $("place-scope").value.startsWith("list:"));
    renderPlaces();
  });
  $("place-order").addEventListener("change", () => order().catch(failure));
  $("place-remind").addEventListener("click", () => remindHere(state.chosenPlace));
  $("place-form").addEventListener("submit", (event) => {
    event.preventDefault();
    savePlace().then(() => say("Saved.")).catch(failure);
  });
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
  $("only-while-open").addEventListener("change", async () => {
    await change(() => api.editTask(state.selected.id, { onlyWhileOpen: $("only-while-open").checked }));
    renderTasks();
  });
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
  $("later").addEventListener("click", async () => {
    if ($("later-choice").value !== "visit") return act("later", { seconds: laterSeconds($("later-choice").value) });
    // Nothing to snooze: a reminder fires once per visit, so it stays quiet until the next arrival.
    await act("later", { nextVisit: true });
    say(`“${state.selected.title}” will remind you when you next arrive at one of its places.`);
  });
  $("place-delete").addEventListener("click", async () => {
    try {
      const gone = await api.deletePlace(state.chosenPlace.id);
      state.chosenPlace = null;
      await refreshPlaces();
      open("places");
      await offerUndo();
      say(`Deleted ${gone.deleted}.`);
    } catch (error) { failure(error); }
  });
  $("list-delete").addEventListener("click", async () => {
    const scope = $("place-scope").value;
    if (!scope.startsWith("list:")) return;
    try {
      const gone = await api.deleteList(scope.slice(5));
      $("place-scope").value = "all";
      await refreshPlaces();
      await offerUndo();
      const removed = gone.placesRemoved.length ? ` and its ${gone.placesRemoved.length} place(s) in no other list: ${gone.placesRemoved.join(", ")}` : "";
      say(`Deleted the list ${gone.list}${removed}.`);
    } catch (error) { failure(error); }
  });
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
  // Unread preferences count as welcomed; an answer that came after a sign-out opens nothing.
  const preferences = await api.preferences().catch((error) => (error instanceof StaleAnswer ? null : { welcomed: true }));
  if (!preferences) return;
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

// Nothing of the person who left stays for whoever signs in next on this
// browser: their places, lists, reminders and phone filled hidden views,
// which showed until the next person's own arrived, and their phone's last
// position stood in for someone without one.
function signedOut() {
  Object.assign(state, {
    person: null, selected: null, tasks: [], suggestions: [], mapPlaces: [], lastFix: null, listScroll: 0, places: [], lists: [],
    chosenPlace: null, placeScroll: 0, preferences: undefined, entering: null, planKey: undefined, eventsKey: undefined,
  });
  $("who").textContent = "";
  for (const id of ["task-list", "location-list", "suggestion-list", "place-list", "list-library", "place-facts", "review-list", "event-list", "phone-status"]) {
    $(id).replaceChildren();
  }
  for (const id of ["place-count", "place-order-note", "import-summary", "review-note"]) $(id).textContent = "";
  show($("sign-in"), true);
  show($("signed-in"), false);
  show($("sign-out"), false);
  map.showTasks([], null, {});
  map.showPlaces([], null, () => {});
  map.showCandidates([]);
  map.showPlan({ regions: [] }, false);
  map.showMe(null);
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
  const tasks = await api.tasks();
  state.tasks = tasks;
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

function renderTask() {
  const task = state.selected;
  if (!task) return;
  $("task-title").textContent = task.title;
  $("task-notes").textContent = task.notes || "";
  const until = task.snoozedUntil ? ` until ${new Date(task.snoozedUntil).toLocaleString()}` : "";
  $("task-state").textContent = `${task.state}${until}`;
  $("only-while-open").checked = !!task.onlyWhileOpen;
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
    li.append(name);
    if (location.open === true || location.open === false) {
      // Opening hours, when the map data gave them: a task only for open hours waits for them.
      const hours = document.createElement("span");
      hours.className = "note";
      const waits = !location.open && task.onlyWhileOpen ? ": waits until it opens" : "";
      hours.textContent = ` ${location.open ? "open now" : "closed now"}${waits}`;
      hours.title = location.hours || "";
      li.append(hours);
    }
    li.append(buttons, radius);
    list.append(li);
  });
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
  // Each answer belongs to the latest reminder of its task before it (events come oldest first).
  const answerOf = new Map();
  const latest = new Map();
  for (const event of events) {
    if (!event.task) continue;
    if (event.kind === "reminder") latest.set(event.task, event);
    else if (event.kind === "answer" && latest.has(event.task) && !answerOf.has(latest.get(event.task))) answerOf.set(latest.get(event.task), event);
  }
  for (const event of reminders) {
    const li = item(`${new Date(event.at).toLocaleString()} — ${event.detail}${event.kind === "reminder" ? "" : ` (${event.kind})`}`);
    li.className = "reminder";
    const task = event.task && byId.get(event.task);
    const answered = answerOf.get(event);
    if (answered) {
      const note = document.createElement("span");
      note.className = "state answer";
      note.textContent = `${answerWords(answered.detail)} ${new Date(answered.at).toLocaleTimeString()}`;
      li.append(" ", note);
    } else if (task && task.state === "active") {
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

function plural(count, one, many = `${one}s`) { return `${count} ${count === 1 ? one : many}`; }

/// "done via link" → "Marked done (from the reminder's link)".
function answerWords(detail) {
  const [action, , channel] = detail.split(" ");
  const what = { done: "Marked done", later: "Remind Later", visit: "Remind next time here", reopen: "Reopened" }[action] ?? action;
  const where = { link: "from the reminder's link", desktop: "from the desktop", api: "from this page or the API", cli: "from the command line" }[channel];
  return where ? `${what} (${where}) at` : `${what} at`;
}

async function refreshPhone() {
  const status = await api.status();
  const facts = $("phone-status");
  facts.replaceChildren();
  const rows = [
    ["Regions watched", `${status.regionsWatched} of ${status.capacity}`],
    ["Precise location today", `${Math.round(status.preciseSecondsUsed / 60)} of ${Math.round(status.preciseSecondsAllowed / 60)} min: ${plural(status.sessions, "session")}, ${plural(status.singleFixes, "single fix", "single fixes")}`],
    ["Last report", status.lastFix ? `${age(status.serverTime - status.lastFix.at)} ago (±${Math.round(status.lastFix.accuracy ?? 0)} m)` : "none yet"],
    ["Reminders delivered", String(status.deliveries.delivered) + (status.deliveries.waiting ? `, ${status.deliveries.waiting} waiting` : "")],
  ];
  if ((status.devices ?? []).length > 1) {
    // Several phones: each one's last report and battery instead of the newest alone.
    rows.splice(2, 1, ...status.devices.map((fix) => [
      `Last report from ${fix.device || "an unnamed device"}`,
      `${age(status.serverTime - fix.at)} ago (±${Math.round(fix.accuracy ?? 0)} m)${fix.battery != null ? `, battery ${fix.battery} %${fix.charging ? ", charging" : ""}` : ""}`,
    ]));
  } else if (status.lastFix && status.lastFix.battery != null) {
    rows.splice(3, 0, ["Battery", `${status.lastFix.battery} %${status.lastFix.charging ? ", charging" : ""} (at the last report)`]);
  }
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

// The daemon's JSON API as the signed-in page uses it: the session cookie
// goes by itself (same origin), and every change carries the CSRF token.
let csrf = "";

export class APIError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// Requests in flight; the page says it is busy meanwhile (screen readers,
// and tests that must not act on a card about to be redrawn).
// What is in flight is named in data-pending, so a test that waits too
// long for the page to settle can say which request never came back.
const pending = [];

// Each request belongs to the session it was made in. Its answer, or its
// failure, arriving after that session ended (signed out, someone else
// signed in) is a StaleAnswer, which the page draws nothing for: one
// person's data must not land in the next person's views, and a late 401
// must not sign the next person out.
let generation = 0;
export class StaleAnswer extends Error {}

function busy(what, change) {
  if (change > 0) pending.push(what); else pending.splice(pending.indexOf(what), 1);
  document.body.setAttribute("aria-busy", String(pending.length > 0));
  document.body.dataset.pending = pending.join(", ");
}

async function call(method, path, body) {
  const what = method + " " + path;
  const made = generation;
  busy(what, +1);
  try {
    const data = await request(method, path, body);
    if (made !== generation) throw new StaleAnswer(what);
    return data;
  } catch (error) {
    if (made !== generation) throw new StaleAnswer(what);
    throw error;
  } finally {
    busy(what, -1);
  }
}

async function request(method, path, body) {
  const headers = { "Accept": "application/json" };
  const raw = body instanceof Blob;
  if (body !== undefined && !raw) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRF-Token"] = csrf;
  const response = await fetch(path, {
    method, headers, credentials: "same-origin",
    body: body === undefined || raw ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (response.status === 413) throw new APIError(413, "The file is larger than this server accepts (server.max-body); ask its operator to raise it, or import with the CLI.");
  if (!response.ok) throw new APIError(response.status, (data && data.error) || response.statusText);
  return data;
}

export async function session() {
  try {
    const found = await call("GET", "/web/session");
    csrf = found.csrf;
    return found.person;
  } catch (error) {
    if (error.status === 401) return null;
    throw error;
  }
}

export async function signIn(name, password) {
  generation += 1;
  const made = await call("POST", "/web/session", { name, password });
  csrf = made.csrf;
  return made.person;
}

export async function signOut() {
  generation += 1;
  await call("DELETE", "/web/session");
  csrf = "";
}

export const api = {
  config: () => call("GET", "/app/config.json"),
  tasks: () => call("GET", "/api/v1/tasks"),
  task: (id) => call("GET", `/api/v1/tasks/${encodeURIComponent(id)}`),
  addTask: (title, locations) => call("POST", "/api/v1/tasks", { title, locations }),
  editTask: (id, change) => call("PATCH", `/api/v1/tasks/${encodeURIComponent(id)}`, change),
  undoList: () => call("GET", "/api/v1/undo"),
  undo: (key) => call("POST", "/api/v1/undo", { key }),
  deleteTask: (id) => call("DELETE", `/api/v1/tasks/${encodeURIComponent(id)}`),
  deletePlace: (id) => call("DELETE", `/api/v1/places/${encodeURIComponent(id)}`),
  deleteList: (id) => call("DELETE", `/api/v1/lists/${encodeURIComponent(id)}`),
  act: (id, action, body) => call("POST", `/api/v1/tasks/${encodeURIComponent(id)}/${action}`, body),
  addLocation: (id, location) => call("POST", `/api/v1/tasks/${encodeURIComponent(id)}/locations`, location),
  editLocation: (id, location, change) =>
    call("PATCH", `/api/v1/tasks/${encodeURIComponent(id)}/locations/${encodeURIComponent(location)}`, change),
  removeLocation: (id, location) =>
    call("DELETE", `/api/v1/tasks/${encodeURIComponent(id)}/locations/${encodeURIComponent(location)}`),
  suggestions: (q, lat, lon) =>
    call("GET", `/api/v1/suggestions?q=${encodeURIComponent(q)}&lat=${lat}&lon=${lon}`),
  places: () => call("GET", "/api/v1/places?form=summary"),
  lists: () => call("GET", "/api/v1/lists"),
  editPlace: (id, change) => call("PATCH", `/api/v1/places/${encodeURIComponent(id)}`, change),
  createList: (name) => call("POST", "/api/v1/lists", { name }),
  addToList: (list, place) => call("PUT", `/api/v1/lists/${encodeURIComponent(list)}/places/${encodeURIComponent(place)}`),
  removeFromList: (list, place) => call("DELETE", `/api/v1/lists/${encodeURIComponent(list)}/places/${encodeURIComponent(place)}`),
  plan: () => call("GET", "/api/v1/plan"),
  startImport: (file, list) =>
    call("POST", `/api/v1/imports?file=${encodeURIComponent(file.name)}&list=${encodeURIComponent(list)}`, file),
  importStatus: () => call("GET", "/api/v1/imports/current"),
  cancelImport: () => call("DELETE", "/api/v1/imports/current"),
  review: () => call("GET", "/api/v1/imports/review"),
  decide: (row, decision) => call("POST", `/api/v1/imports/review/${encodeURIComponent(row)}`, decision),
  preferences: () => call("GET", "/api/v1/preferences"),
  setPreferences: (change) => call("PUT", "/api/v1/preferences", change),
  events: () => call("GET", "/api/v1/events"),
  status: () => call("GET", "/api/v1/status"),
};

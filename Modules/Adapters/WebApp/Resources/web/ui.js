// What every part of the card shares: the page's state, small DOM helpers,
// and the map and view switching (set by app.js at start).
export const $ = (id) => document.getElementById(id);
// Also on window, so the browser test can read what the page holds.
export const state = window.__whilehere = { person: null, tasks: [], selected: null, suggestions: [], mapPlaces: [], lastFix: null, listScroll: 0, places: [], lists: [] };
/// The map, the view switcher and what happens when the session ends; app.js sets them.
export const page = { map: null, open: (view) => {}, failure: (error) => {} };

export function show(element, visible) { element.hidden = !visible; }
export function say(text) { $("message").textContent = text || ""; }

export function small(text, label, disabled, action) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "quiet";
  button.textContent = text;
  button.setAttribute("aria-label", label);
  button.disabled = disabled;
  button.addEventListener("click", action);
  return button;
}

export function item(text) {
  const li = document.createElement("li");
  li.textContent = text;
  return li;
}

// A list row: one button with the name and, quieter, what else is known.
export function row(name, detail, data, action) {
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

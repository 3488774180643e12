import { api } from "./api.js";
import { $, item, page, say, show, small, state } from "./ui.js";

// Import: upload, watch, cancel; then the rows it could not settle alone,
// each with its candidates on the map (accept one, search with other
// words, enter the place on the map, or reject the row).
export async function startImport() {
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

export async function refreshImport() {
  const status = await api.importStatus();
  if (status.state === "running") { watchImport().catch(page.failure); return; }
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
    try { await api.decide(row.id, decision); page.map.showCandidates([]); await refreshReview(); } catch (error) { page.failure(error); }
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
    li.append(candidates, small("Show on the map", `Show the candidates for ${row.title} on the map`, false, () => page.map.showCandidates(row.candidates)));
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

export async function enterAt(lat, lon) {
  const row = state.entering;
  state.entering = null;
  const name = prompt("Name of the place", row.title);
  if (!name) { say(""); return; }
  await api.decide(row.id, { action: "enter", name, lat, lon });
  say(`Saved “${name}” where you clicked.`);
  await refreshReview();
}

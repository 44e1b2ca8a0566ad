// The tournament page: status, entrants, level and its clock, payouts, tables to watch, results.
// Read from GET /api/tournaments/ID every two seconds; the clock counts down in between.

import { $, textElement as text } from "./dom.js";

const ident = new URLSearchParams(location.search).get("id");
let nextLevelAt = null;

function tick() {
  if (nextLevelAt === null) {
    $("clock").textContent = "—";
    return;
  }
  const seconds = Math.max(0, Math.round((nextLevelAt - Date.now()) / 1000));
  $("clock").textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

async function refresh() {
  const answer = await fetch(`/api/tournaments/${encodeURIComponent(ident)}`);
  const t = await answer.json();
  if (!answer.ok) {
    $("status").textContent = t.error;
    return;
  }
  $("name").textContent = `Tournament ${t.id}`;
  $("status").textContent = t.status;
  $("entrants").textContent = `${t.entrants} of ${t.config.entrants} registered, ${t.left} left`;
  const ante = t.blinds[2] ? `, ante ${t.blinds[2]}` : "";
  $("level").textContent = `${t.level}: blinds ${t.blinds[0]}/${t.blinds[1]}${ante}`;
  nextLevelAt = t.status === "running" && t.next_level_in !== null ? Date.now() + t.next_level_in * 60000 : null;
  $("payouts").textContent = t.prizes.map((prize, k) => `${k + 1}. ${prize}`).join(", ");
  $("tables").replaceChildren(...t.tables.map((table) => {
    const li = document.createElement("li");
    const link = text("a", `table ${table}`);
    link.href = `/?table=${encodeURIComponent(table)}`;
    li.append(link);
    return li;
  }));
  $("results").replaceChildren(...t.results.map((r) => {
    const row = document.createElement("tr");
    row.append(text("td", r.place), text("td", r.name), text("td", r.prize));
    return row;
  }));
  tick();
}

refresh();
setInterval(refresh, 2000);
setInterval(tick, 1000);

// The tournaments (/tournaments): the events running now, starting soon and finished, each linked to its
// page, and for a signed-in person the form that creates one (tournament/form.js). The lists refresh by
// themselves while the page is in view.

import { editionName } from "../players/words.js";
import { el, markReady } from "../shared/dom.js";
import { sentence } from "../shared/format.js";
import { startLanguage, t, tn } from "../shared/i18n.js";
import { preferences } from "../shared/preferences.js";
import { TournamentStatus } from "../shared/protocol.js";
import { api, ApiError } from "../shared/rest.js";
import { whoBar } from "../shared/who.js";
import { installForm } from "../tournament/form.js";
import { clockWords, kindText, lengthText, localTime } from "../tournament/words.js";

const $ = (id) => document.getElementById(id);
const STATUSES = [TournamentStatus.RUNNING, TournamentStatus.UPCOMING, TournamentStatus.FINISHED];
const REFRESH_MS = 10_000;

await startLanguage();
document.title = t("tournaments.page_title");
$("preferences").replaceWith(preferences());
whoBar().then((bar) => $("who").replaceWith(bar));

let editions = [];

/** The number of players who joined (and did not withdraw). */
function players(event) {
  return tn("tournaments.players_n", event.entrants ?? 0);
}

/** When an upcoming event starts, a running one ends (or started), a finished one ended. */
function whenText(event) {
  if (event.status === TournamentStatus.FINISHED) return t("tournaments.ended_at", { time: localTime(event.ends_at) });
  if (event.status === TournamentStatus.RUNNING && event.ends_at) {
    return t("tournaments.ends_at", { time: localTime(event.ends_at) });
  }
  return t("tournaments.starts_at", { time: localTime(event.starts_at) });
}

/** One event as a table row; on a phone a card whose cells carry their headings (data-label). */
function row(event) {
  const cell = (key, ...content) => el("td", { "data-label": t(key) }, ...content);
  return el("tr", { "data-id": event.id },
    el("th", { scope: "row" }, el("a", { href: `/tournaments/${encodeURIComponent(event.id)}` }, event.name)),
    cell("tournaments.kind", kindText(event.kind), el("span", { class: "muted small" }, ` · ${lengthText(event)}`)),
    cell("lobby.edition", editionName(editions, event.edition)),
    cell("lobby.clock", clockWords(event)),
    cell("tournaments.when", whenText(event)),
    cell("tournaments.players", players(event)));
}

function table(events) {
  const heading = (key) => el("th", { scope: "col" }, t(key));
  return el("table", { class: "players-table tournament-table" },
    el("thead", {}, el("tr", {}, heading("tournaments.name"), heading("tournaments.kind"), heading("lobby.edition"),
      heading("lobby.clock"), heading("tournaments.when"), heading("tournaments.players"))),
    el("tbody", {}, events.map(row)));
}

async function load() {
  let answers;
  try {
    answers = await Promise.all(STATUSES.map((status) => api(`/api/tournaments?status=${status}`)));
  } catch (error) {
    $("list-error").textContent = sentence(error instanceof ApiError ? error.message : String(error));
    return;
  }
  $("list-error").textContent = "";
  STATUSES.forEach((status, i) => {
    const events = answers[i].tournaments;
    $(`list-${status}`).replaceChildren(events.length ? table(events)
      : el("p", { class: "muted" }, t(`tournaments.none_${status}`)));
  });
}

editions = await api("/api/editions").catch(() => []);
await Promise.all([load(), installForm(editions)]);
setInterval(() => {
  if (document.visibilityState === "visible") load();
}, REFRESH_MS);
markReady();

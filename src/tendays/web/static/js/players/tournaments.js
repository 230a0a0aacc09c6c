// The tournaments part of a profile: the latest events the player entered (GET /api/tournaments?player=),
// each linked to its page; a finished one with their final place and score, the others with their status.

import { el } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { TournamentStatus } from "../shared/protocol.js";
import { api } from "../shared/rest.js";
import { kindText, localTime, scoreText } from "../tournament/words.js";

const $ = (id) => document.getElementById(id);

function resultText(event) {
  const line = event.standing;
  if (event.status !== TournamentStatus.FINISHED || !line) return t(`tournaments.status.${event.status}`);
  const place = t("tournaments.result_line", { rank: line.rank, players: Math.max(event.entrants, line.rank) });
  return `${place} · ${t("tournaments.points", { score: scoreText(line.score) })}`;
}

/** Show the events `name` entered; the part stays hidden for someone who entered none. */
export async function showTournamentResults(name) {
  const answer = await api(`/api/tournaments?player=${encodeURIComponent(name)}`).catch(() => null);
  const events = answer ? answer.tournaments : [];
  $("tournaments-part").hidden = events.length === 0;
  $("tournament-results").replaceChildren(...events.map((event) => el("li", {},
    el("a", { href: `/tournaments/${encodeURIComponent(event.id)}` }, event.name), " ",
    el("strong", {}, resultText(event)),
    el("span", { class: "muted small" }, ` · ${kindText(event.kind)} · ${localTime(event.starts_at)}`))));
}

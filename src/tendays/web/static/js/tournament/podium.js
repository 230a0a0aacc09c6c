// The podium of a finished tournament: its first three, with their scores.

import { el } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { TournamentStatus } from "../shared/protocol.js";
import { entrantName } from "./standings.js";
import { scoreText } from "./words.js";

const $ = (id) => document.getElementById(id);

/** Show the podium once the event has finished (hidden before). */
export function showPodium(event, me) {
  const podium = event.status === TournamentStatus.FINISHED ? event.podium || [] : [];
  $("podium-part").hidden = podium.length === 0;
  $("podium").replaceChildren(...podium.map((row) => el(
    "li", { class: `podium-place place-${row.rank}`, "data-name": row.name },
    el("span", { class: "podium-rank" }, t("tournaments.place", { place: row.rank })), " ",
    el("strong", {}, entrantName(row, me)), " ",
    el("span", { class: "muted" }, t("tournaments.points", { score: scoreText(row.score) })))));
}

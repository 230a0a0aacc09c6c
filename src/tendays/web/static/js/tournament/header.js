// The tournament page's head: the event's name, its facts (kind, length, edition, clock, start and end in
// the reader's local time), who may join, and where it stands (a countdown to the start, the time left of
// an arena, the round of a Swiss), counted down each second between the server's answers.

import { editionName } from "../players/words.js";
import { el } from "../shared/dom.js";
import { t } from "../shared/i18n.js";
import { TournamentStatus } from "../shared/protocol.js";
import { clockWords, entryRules, kindText, lengthText, localTime, standingText } from "./words.js";

const $ = (id) => document.getElementById(id);

/** Show the facts of `event` (an answer of GET /api/tournaments/{id}). */
export function showHeader(event, editions) {
  document.title = t("tournaments.event_title", { name: event.name });
  $("event-name").textContent = event.name;
  const ends = event.status === TournamentStatus.FINISHED ? "tournaments.ended_at" : "tournaments.ends_at";
  $("event-facts").replaceChildren(el("span", {},
    el("strong", {}, kindText(event.kind)), ` · ${lengthText(event)} · ${editionName(editions, event.edition)}`,
    ` · ${clockWords(event)}`,
    el("br"), t("tournaments.starts_at", { time: localTime(event.starts_at) }),
    event.ends_at ? ` · ${t(ends, { time: localTime(event.ends_at) })}` : null,
    event.created_by ? ` · ${t("tournaments.made_by", { name: event.created_by })}` : null));
  $("event-rules").textContent = entryRules(event).join(" · ");
  const status = $("event-status");
  status.className = `status ${event.status}`;
  status.textContent = t(`tournaments.status.${event.status}`);
  showClock(event);
}

/** The countdown (or the round), as it is now. */
export function showClock(event) {
  const words = standingText(event, Date.now());
  const clock = $("event-clock");
  // the status chip already says "Finished" or "Running": the timer says only what it adds
  clock.textContent = words === t(`tournaments.status.${event.status}`) ? "" : words;
}

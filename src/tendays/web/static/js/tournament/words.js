// How the tournament pages write an event's facts: its kind, length, times (in the reader's local time),
// the tie-break columns, and what a row of the standings says besides its numbers.

import { clockText, paceText } from "../shared/format.js";
import { currentLanguage, levelWord, list, t, tn } from "../shared/i18n.js";
import { TournamentKind, TournamentStatus } from "../shared/protocol.js";

/** A bot entrant's name in the reader's words ("Normal bot", "Bot (normal)"), as a profile names it: the server
 * gives the name stored, the same in every language. */
export function botName(level) {
  const words = t("tournaments.bot_level", { level: levelWord(level) });
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** {stored name: the reader's words} for the bots among `event`'s entrants, for the names its games list. */
export function botNames(event) {
  return new Map((event.standings || []).filter((row) => row.bot).map((row) => [row.name, botName(row.bot)]));
}

/** Milliseconds since the epoch of a time the API gives (unix seconds or an ISO string); null for none. */
export function toMs(value) {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "number") return value * 1000;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

/** "4 Dec 2026, 21:30" in the reader's language and time zone; "" for none. */
export function localTime(value) {
  const ms = toMs(value);
  if (ms === null) return "";
  return new Date(ms).toLocaleString(currentLanguage(), { dateStyle: "medium", timeStyle: "short" });
}

/** "Arena" / "Swiss". */
export function kindText(kind) {
  return t(`tournaments.kind.${kind}`);
}

/** "60 minutes", or "3 rounds, tables of 4". */
export function lengthText(event) {
  if (event.kind === TournamentKind.ARENA) return tn("tournaments.minutes_n", event.minutes || 0);
  const rounds = tn("tournaments.rounds_n", event.rounds || 0);
  return event.table_size > 2 ? `${rounds}, ${t("tournaments.tables_of", { n: event.table_size })}` : rounds;
}

/** The event's clock in words ("Live: 60 s a move, bank 5:00"). */
export function clockWords(event) {
  return paceText(event.clock) || t("lobby.no_clock");
}

/** What the event says of who may play: rating limits and the ladder's bots, as short phrases. */
export function entryRules(event) {
  const rules = [];
  if (event.rated) rules.push(t("tournaments.rated_mark"));
  const low = event.rating_min, high = event.rating_max;
  if (low !== null && low !== undefined && high !== null && high !== undefined) {
    rules.push(t("tournaments.rating_between", { low, high }));
  } else if (low !== null && low !== undefined) {
    rules.push(t("tournaments.rating_from", { low }));
  } else if (high !== null && high !== undefined) {
    rules.push(t("tournaments.rating_to", { high }));
  }
  if (event.bots && event.bots.length) {
    rules.push(t("tournaments.with_bots", { levels: list(event.bots.map(levelWord)) }));
  }
  // bot accounts (programs on the Bot API) may enter this one
  if (event.bots_allowed) rules.push(t("tournaments.bots_allowed"));
  return rules;
}

/** A tie-break column's short heading and its explanation (shown as the heading's title). */
export function tiebreakWords(key) {
  const known = ["buchholz", "sonneborn_berger", "performance"];
  if (!known.includes(key)) return { short: key, long: key };
  return { short: t(`tournaments.tb.${key}`), long: t(`tournaments.tb.${key}_about`) };
}

/** A score as the standings show it, in the reader's way of writing numbers: whole numbers bare, halves and
 * thirds with up to two decimals ("1.5", "1,5"). */
export function scoreText(score) {
  return score.toLocaleString(currentLanguage(), { maximumFractionDigits: 2, useGrouping: false });
}

/** "Starts in 4:32", "Ends in 12:05", "Round 2 of 3", "Finished": where the event stands at `now`. */
export function standingText(event, now) {
  if (event.status === TournamentStatus.UPCOMING) {
    const starts = toMs(event.starts_at);
    return starts === null ? t("tournaments.status.upcoming")
      : t("tournaments.starts_in", { time: clockText((starts - now) / 1000) });
  }
  if (event.status === TournamentStatus.RUNNING) {
    if (event.kind === TournamentKind.SWISS) {
      return t("tournaments.round_of", { round: event.round || 1, rounds: event.rounds });
    }
    const ends = toMs(event.ends_at);
    if (ends === null) return t("tournaments.status.running");
    // an arena's games still being played when its time is up count when they end
    return ends > now ? t("tournaments.ends_in", { time: clockText((ends - now) / 1000) })
      : t("tournaments.last_games");
  }
  return t(`tournaments.status.${event.status}`);
}

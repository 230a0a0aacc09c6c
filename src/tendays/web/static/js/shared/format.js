// Text a page shows: a server's sentence on its own, durations, a game's pace, how long ago, and a game's
// seat link path.

import { currentLanguage, t, tn } from "./i18n.js";
import { PaceKind } from "./protocol.js";

/**
 * A sentence of the server's shown on its own (a refusal, a hint): capitalised, with a full stop. The server
 * writes them to fit after a colon too ("You could not join: the game is full").
 */
export function sentence(text) {
  const trimmed = String(text || "").trim();
  if (!trimmed) return "";
  const first = trimmed[0].toLocaleUpperCase(currentLanguage()) + trimmed.slice(1);
  return /[.!?…]$/u.test(first) ? first : `${first}.`;
}

/** The seat link path of a game, without the token. */
export function playPath(gameId) {
  return `/play/${encodeURIComponent(gameId)}`;
}

/** A duration in seconds as the clock shows it: "0:42", "12:05", "1 h 05", "2 days". */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 2 * 86400) return tn("time.days", Math.floor(s / 86400));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A game's pace in words, from its `pace` or `clock` ({kind, per_move, bank}); "" for none. */
export function paceText(pace) {
  if (!pace) return "";
  const each = pace.per_move >= 3600 ? clockText(pace.per_move) : `${pace.per_move} s`;
  if (pace.kind === PaceKind.CORRESPONDENCE) return t("pace.correspondence", { each });
  return pace.bank ? t("pace.live_bank", { each, bank: clockText(pace.bank) }) : t("pace.live", { each });
}

/** A short "3 minutes ago" for timestamps (ISO strings or seconds since the epoch). */
export function timeAgo(created) {
  if (created === undefined || created === null) return "";
  const when = typeof created === "number" ? created * (created < 1e12 ? 1000 : 1) : Date.parse(created);
  if (Number.isNaN(when)) return "";
  const seconds = Math.max(0, Math.round((Date.now() - when) / 1000));
  if (seconds < 60) return t("ago.now");
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t("ago.minutes", { n: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return t("ago.hours", { n: hours });
  return tn("ago.days", Math.round(hours / 24));
}

// The live standings of a tournament: rank, name (with the account mark other pages show, or the bot's
// level), score, games played and the tie-break columns, each heading explained in its title; in an arena
// the fire mark of a player on a streak (the next win scores double), shown as a sign and said in words.

import { accountMark, botMark } from "../shared/account_mark.js";
import { el, svg } from "../shared/dom.js";
import { levelWord, t } from "../shared/i18n.js";
import { TournamentKind } from "../shared/protocol.js";
import { botName, scoreText, tiebreakWords } from "./words.js";

const $ = (id) => document.getElementById(id);

/** The tie-break keys of the standings, in the server's order ({"buchholz", "sonneborn_berger"} ...). */
function tiebreakKeys(standings, kind) {
  const first = standings.find((row) => row.tiebreaks) || null;
  if (first) return Object.keys(first.tiebreaks);
  return kind === TournamentKind.SWISS ? ["buchholz", "sonneborn_berger"] : ["performance"];
}

/** A player's name as the standings show it, with the account's mark, the bot's level or "you". */
export function entrantName(row, me) {
  return [
    row.bot ? botName(row.bot) : row.name,
    row.account ? " " : null,
    row.account ? accountMark({ account: true, name: row.name }) : null,
    botMark(row),
    row.bot ? " " : null,
    row.bot ? el("span", { class: "bot-mark", title: t("tournaments.bot_level", { level: levelWord(row.bot) }) },
      t("tournaments.bot")) : null,
    me && row.name === me ? el("span", { class: "muted small" }, ` · ${t("lobby.you")}`) : null,
  ];
}

/** The flame drawn beside the score of a player on fire (no emoji: not every system has a font for it). */
export function flame() {
  return svg("svg", { class: "flame", viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true" },
    svg("path", { d: "M8 1c1 3 4 4.5 4 8.5A4 4 0 0 1 4 9.5C4 7 5.5 6 6 4c.8 1.2 1 2.2 1 3 .9-1 1.3-3.5 1-6z" }));
}

function fireMark(row) {
  if (!row.fire) return null;
  return el("span", { class: "fire", title: t("tournaments.fire_about") }, " ", flame(),
    el("span", { class: "visually-hidden" }, ` ${t("tournaments.on_fire")}`));
}

/** What a row says besides its numbers: withdrawn or paused. */
function rowState(row) {
  if (row.withdrawn) return t("tournaments.withdrawn");
  if (row.paused) return t("tournaments.paused");
  return "";
}

function head(keys) {
  const column = (key) => el("th", { scope: "col" }, t(key));
  return el("tr", {}, column("board.rank"), column("board.player"), column("tournaments.score"),
    column("tournaments.games_played"),
    keys.map((key) => {
      const words = tiebreakWords(key);
      return el("th", { scope: "col", "data-tiebreak": key }, el("abbr", { title: words.long }, words.short));
    }),
    el("th", { scope: "col" }, el("span", { class: "visually-hidden" }, t("tournaments.state"))));
}

/** Draw the standings of `event` for the reader `me` (a name, or null). */
export function showStandings(event, me) {
  const standings = event.standings || [];
  const keys = tiebreakKeys(standings, event.kind);
  $("standings-head").replaceChildren(head(keys));
  const cell = (label, ...content) => el("td", { "data-label": label }, ...content);
  $("standings").replaceChildren(...standings.map((row) => el("tr", {
    class: [me && row.name === me ? "mine" : "", row.withdrawn ? "withdrawn" : ""].join(" ").trim() || null,
    "data-name": row.name,
  },
  cell(t("board.rank"), String(row.rank)),
  el("th", { scope: "row" }, entrantName(row, me)),
  cell(t("tournaments.score"), el("strong", {}, scoreText(row.score)), fireMark(row)),
  cell(t("tournaments.games_played"), String(row.games)),
  keys.map((key) => el("td", { "data-label": tiebreakWords(key).short, "data-tiebreak": key },
    scoreText((row.tiebreaks || {})[key] ?? 0))),
  el("td", { class: "muted small" }, rowState(row)))));
  $("no-standings").hidden = standings.length > 0;
  // the headings' titles, written out for readers who cannot hover (a phone, a keyboard)
  $("tiebreak-legend").replaceChildren(...keys.flatMap((key) => [el("dt", {}, tiebreakWords(key).short),
    el("dd", {}, tiebreakWords(key).long)]));
  $("standings-note").textContent = event.kind === TournamentKind.ARENA ? t("tournaments.arena_scoring")
    : t("tournaments.swiss_scoring");
}

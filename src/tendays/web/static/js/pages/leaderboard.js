// The leaderboard (/leaderboard?edition=usa): the people with settled ratings, best first, a page at a time,
// with the bots' published ratings placed among them on the same scale.

import { botsNote, deviationText, ratingText } from "../players/words.js";
import { botMark } from "../shared/account_mark.js";
import { el, markReady } from "../shared/dom.js";
import { levelWord, startLanguage, t } from "../shared/i18n.js";
import { preferences } from "../shared/preferences.js";
import { api, ApiError } from "../shared/rest.js";
import { whoBar } from "../shared/who.js";

const $ = (id) => document.getElementById(id);
const PER_PAGE = 50;

await startLanguage();
document.title = t("board.page_title");
$("preferences").replaceWith(preferences());
whoBar().then((bar) => $("who").replaceWith(bar));

let board = null;
const editions = await api("/api/editions").catch(() => []);

/** The people of this page, with each bot placed where its rating falls among them (on the first page,
 * also above the best; on the last, also below the lowest). */
function rows() {
  const people = board.players;
  const top = board.page === 1 ? Infinity : (people[0] ? people[0].rating : -Infinity);
  const bottom = board.page >= board.pages ? -Infinity : (people.length ? people[people.length - 1].rating : Infinity);
  const bots = board.bots.levels.filter((b) => b.rating <= top && b.rating > bottom);
  const merged = [...people.map((p) => ({ person: p, rating: p.rating })),
    ...bots.map((b) => ({ bot: b, rating: b.rating }))].sort((a, b) => b.rating - a.rating);
  return merged.map((row) => (row.person
    ? el("tr", {}, el("td", {}, String(row.person.rank)),
      el("td", {}, el("a", { href: `/players/${encodeURIComponent(row.person.name)}` }, row.person.name),
        botMark(row.person)),
      el("td", {}, ratingText(row.person.rating), " ", el("span", { class: "muted small" },
        deviationText(row.person.deviation))),
      el("td", {}, String(row.person.games)))
    : el("tr", { class: "bot-row" }, el("td", {}, ""),
      el("td", {}, t("board.bot", { level: levelWord(row.bot.level) })),
      el("td", {}, ratingText(row.bot.rating), " ", el("span", { class: "muted small" },
        deviationText(row.bot.deviation))),
      el("td", {}, "—"))));
}

async function load(edition, page) {
  // "Hide bots" leaves the bot accounts off (they are listed, marked BOT, by default); kept in the address
  const hide = $("board-hide-bots").checked ? "&bots=false" : "";
  try {
    board = await api(
      `/api/leaderboard?edition=${encodeURIComponent(edition)}&page=${page}&per_page=${PER_PAGE}${hide}`);
  } catch (error) {
    $("board-error").textContent = error instanceof ApiError ? error.message : String(error);
    return;
  }
  $("board-error").textContent = "";
  history.replaceState(null, "", `/leaderboard?edition=${encodeURIComponent(edition)}${hide}`);
  $("board").replaceChildren(...rows());
  $("board-empty").hidden = board.total > 0;
  $("board-note").textContent = `${t("board.note")} ${botsNote(board.bots, editions)}`;
  $("board-page").textContent = t("players.page", { page: board.page, pages: board.pages });
  $("board-previous").disabled = board.page <= 1;
  $("board-next").disabled = board.page >= board.pages;
}

const select = $("board-edition");
select.replaceChildren(...editions.map((e) => el("option", { value: e.id }, e.name)));
const address = new URLSearchParams(location.search);
const asked = address.get("edition");
$("board-hide-bots").checked = address.get("bots") === "false";
$("board-hide-bots").addEventListener("change", () => load(select.value, 1));
select.value = editions.some((e) => e.id === asked) ? asked : (editions.find((e) => e.default) || editions[0] || {}).id;
select.addEventListener("change", () => load(select.value, 1));
$("board-previous").addEventListener("click", () => load(board.edition, board.page - 1));
$("board-next").addEventListener("click", () => load(board.edition, board.page + 1));
await load(select.value || "usa", 1);
markReady();

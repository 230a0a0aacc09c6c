// A player's profile (/players/{name}): ratings per edition, the rating history drawn as a chart here, and the
// games played, newest first, a page at a time, each linked to its replay (or, while played, its table); and
// for a signed-in visitor, buttons to challenge (players/challenge_form.js), report or block the player
// (players/moderation.js).

import { showChallenge } from "../players/challenge_form.js";
import { ratingChart } from "../players/chart.js";
import { showFollow } from "../players/follow_button.js";
import { showModeration } from "../players/moderation.js";
import { showTournamentResults } from "../players/tournaments.js";
import { changeText, deviationText, editionName, ratingText } from "../players/words.js";
import { botMark } from "../shared/account_mark.js";
import { signedIn } from "../shared/account_session.js";
import { el, markReady } from "../shared/dom.js";
import { sentence } from "../shared/format.js";
import { dateText, levelWord, startLanguage, t } from "../shared/i18n.js";
import { preferences } from "../shared/preferences.js";
import { api, ApiError } from "../shared/rest.js";
import { whoBar } from "../shared/who.js";

const $ = (id) => document.getElementById(id);
// Everything after /players/: a name may hold a slash ("AC/DC", linked as AC%2FDC).
const name = decodeURIComponent(location.pathname.replace(/^\/players\//, ""));
const PER_PAGE = 20;

await startLanguage();
$("preferences").replaceWith(preferences());
whoBar().then((bar) => $("who").replaceWith(bar));

let editions = [];
let bots = { levels: [] };
let profile = null;
let mine = false; // the reader's own profile: a game being played is theirs to go on with, not to watch

function showRatings() {
  const editionsRated = Object.entries(profile.ratings);
  $("ratings").replaceChildren(editionsRated.length === 0 ? el("p", { class: "muted" }, t("players.unrated"))
    : el("dl", { class: "rating-list" }, editionsRated.flatMap(([edition, r]) => [
      el("dt", {}, editionName(editions, edition)),
      el("dd", {}, el("strong", { class: "rating-value" }, ratingText(r.rating, r.provisional)), " ",
        el("span", { class: "muted" }, deviationText(r.deviation)), " · ", t("players.rated_games", { n: r.games }),
        r.provisional ? el("span", { class: "small muted" }, ` · ${t("players.provisional")}`) : null),
    ])));
}

function showChart() {
  const shown = Object.keys(profile.history).filter((e) => profile.history[e].length > 0);
  const select = $("chart-edition");
  $("chart-edition-label").hidden = shown.length < 2;
  if (select.options.length !== shown.length) {
    select.replaceChildren(...shown.map((e) => el("option", { value: e }, editionName(editions, e))));
  }
  const edition = select.value || shown[0];
  $("chart").replaceChildren(shown.length === 0 ? el("p", { class: "muted" }, t("players.no_history"))
    : ratingChart(profile.history[edition], bots.levels));
}

function resultText(game) {
  if (game.result === "playing") return t("players.playing");
  if (game.result === "abandoned") return t("players.abandoned");
  if (game.result === "aborted") return t("players.aborted"); // a rated game with no result: neither won nor lost
  const word = t(`players.${game.result}`);
  return game.players > 2 && game.place ? `${word} (${t("players.place", { place: game.place, n: game.players })})`
    : word;
}

/** Why a rated game that was won or lost moved no rating: the repeat cap, or the operator annulled it. */
function notCounted(game) {
  const why = { capped: "players.capped", annulled: "players.annulled" }[game.rated_outcome];
  return why ? el("span", { class: "small muted" }, ` · ${t(why)}`) : null;
}

/** The others at the table, each person with an account linked to their profile. */
function against(game) {
  return game.others.flatMap((o, i) => [i ? ", " : null,
    // a bot's name comes from the server in the reader's language and says it is a bot ("Bot (normal)")
    o.bot ? o.name || levelWord(o.bot)
      : o.profile ? el("a", { href: o.profile }, o.name) : o.name || "—",
    botMark(o)]); // a bot account's BOT
}

function showGames() {
  // data-label: each cell's heading, shown beside it on a phone, where a row is laid out as a card (players.css)
  const cell = (key, ...content) => el("td", key ? { "data-label": t(key) } : {}, ...content);
  const rows = profile.games.map((game) => el("tr", { class: `result-${game.result}` },
    cell("players.when", dateText(game.created)),
    cell("players.edition", editionName(editions, game.edition), game.rated ? el("span", { class: "rated-mark" },
      ` · ${t("players.rated")}`) : null, notCounted(game)),
    cell("players.against", against(game)),
    cell("players.result", resultText(game)),
    cell(game.rating === null ? null : "players.rating",
      game.rating === null ? "" : `${ratingText(game.rating)} (${changeText(game.change)})`),
    cell(null, el("a", { href: game.link }, game.result !== "playing" ? t("players.replay")
      : mine ? t("players.continue") : t("players.watch")))));
  $("games").replaceChildren(...rows);
  $("no-games").hidden = profile.total > 0;
  $("games-page").textContent = t("players.page", { page: profile.page, pages: profile.pages });
  $("games-previous").disabled = profile.page <= 1;
  $("games-next").disabled = profile.page >= profile.pages;
}

async function load(page) {
  try {
    profile = await api(`/api/players/${encodeURIComponent(name)}?page=${page}&per_page=${PER_PAGE}`);
  } catch (error) {
    $("player-name").textContent = name;
    $("player-error").textContent = sentence(error instanceof ApiError ? error.message : String(error));
    if (!profile) { // nobody of this name: no empty chart or games under the refusal
      for (const part of document.querySelectorAll(".player-part")) part.hidden = true;
    }
    return;
  }
  const session = await signedIn();
  mine = Boolean(session) && session.name === profile.name;
  document.title = t("players.page_title", { name: profile.name });
  $("player-name").replaceChildren(profile.name, botMark(profile) || "");
  $("player-since").textContent = t("players.since", {
    date: dateText(profile.since * 1000) });
  // an account the server's operator suspended or closed says so (it is off the leaderboards)
  $("player-status").hidden = profile.status === "active";
  if (profile.status !== "active") $("player-status").textContent = t(`players.status.${profile.status}`);
  showRatings();
  showChart();
  showGames();
  showTournamentResults(profile.name); // not waited for: the rest of the profile is shown meanwhile
  showChallenge(profile, session, editions);
  await showFollow(profile, session);
  await showModeration(profile, session, editions);
}

$("chart-edition").addEventListener("change", showChart);
$("games-previous").addEventListener("click", () => load(profile.page - 1));
$("games-next").addEventListener("click", () => load(profile.page + 1));

[editions, bots] = await Promise.all([api("/api/editions").catch(() => []),
  api("/api/leaderboard").then((b) => b.bots).catch(() => ({ levels: [] }))]);
await load(1);
markReady();

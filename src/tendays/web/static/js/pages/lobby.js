// The lobby: create a game, join or watch an open one, and resume the games this device holds a seat in.

import { learnMemory } from "../learn/memory.js";
import { startPairing } from "../lobby/pairing.js";
import { accountMark, botMark } from "../shared/account_mark.js";
import { signedIn } from "../shared/account_session.js";
import { el, fillIfEmpty, markReady } from "../shared/dom.js";
import { paceText, playPath, timeAgo } from "../shared/format.js";
import { botAbout, currentLanguage, decimal, levelWord, startLanguage, t, tn } from "../shared/i18n.js";
import { preferences } from "../shared/preferences.js";
import { MatchStatus, SeatKind } from "../shared/protocol.js";
import { api } from "../shared/rest.js";
import { remembered } from "../shared/storage.js";
import { whoBar } from "../shared/who.js";

// The page is on screen (and may be typed into) while its words and choices load: nothing set below
// overwrites what the person typed or chose meanwhile.
await startLanguage(); // the language chosen here, else the browser's
document.getElementById("learn-offer").hidden = !learnMemory.firstTime(); // offered until finished or skipped
document.title = t("lobby.title");
document.getElementById("preferences").replaceWith(preferences());
whoBar().then((bar) => document.getElementById("who").replaceWith(bar));

const REFRESH_MS = 5000;
const DEFAULT_LEVEL = "normal";

const form = document.getElementById("create-form");
const nameInput = document.getElementById("player-name");
const seatList = document.getElementById("seat-list");
const createError = document.getElementById("create-error");
const gameList = document.getElementById("game-list");
const gamesError = document.getElementById("games-error");
const myGames = document.getElementById("my-games");
const firstSeat = document.getElementById("first-seat");
const playingList = document.getElementById("playing-list");
const pages = { joinable: 1, playing: 1 }; // the page of each list shown
let listFailed = false; // the games error says the list could not be read (else it is a refused join: it stays)
let editionNames = {};
let botChoices = { levels: [], bots: [] }; // from the server's registry, /api/bots

fillIfEmpty(nameInput, remembered.name());
signedIn().then((session) => {
  document.getElementById("rated-offer").hidden = !session; // only signed-in people may create a rated game
  document.getElementById("rated-signed-out").hidden = Boolean(session);
  if (!session) return;
  nameInput.value = session.name; // a signed-in person plays under the account's name
  nameInput.readOnly = true;
});

function seatCount() {
  return Number(form.elements.seats.value || 2);
}

/** The choices for a seat other than the creator's: a person to invite, a bot level, or a particular bot. */
function seatOptions() {
  const { levels, bots } = botChoices;
  const levelNames = new Set(levels.map((level) => level.name));
  const others = bots.filter((bot) => !levelNames.has(bot.name));
  return [
    el("option", { value: "human" }, t("lobby.seat_human")),
    levels.map((level) => el("option", { value: level.name, title: level.description },
      level.rating === null || level.rating === undefined ? t("lobby.seat_level", { level: levelWord(level.name) })
        : t("lobby.seat_level_rated", { level: levelWord(level.name), rating: decimal(level.rating) }))),
    others.length ? el("optgroup", { label: t("lobby.more_bots") },
      others.map((bot) => el("option", { value: bot.name, title: botAbout(bot.name, bot.description) },
        t("lobby.seat_level", { level: levelWord(bot.name) })))) : null,
  ];
}

function defaultSeat() {
  const { levels } = botChoices;
  if (levels.some((level) => level.name === DEFAULT_LEVEL)) return DEFAULT_LEVEL;
  return levels.length ? levels[0].name : "human";
}

/** Seat 1 is always the creator; the others are a human to invite or a bot, as chosen, else the default. */
function renderSeats() {
  const previous = [...seatList.querySelectorAll("select")].map((s) => (s.dataset.chosen ? s.value : ""));
  seatList.replaceChildren(el("li", { class: "seat-row" }, el("span", { class: "seat-no" }, t("lobby.seat_no", { n: 1 })),
    el("span", {}, t("lobby.you"))));
  for (let seat = 2; seat <= seatCount(); seat += 1) {
    const id = `seat-${seat}`;
    const select = el("select", { id, name: id, "data-seat": seat }, ...seatOptions());
    select.value = previous[seat - 2] || defaultSeat();
    if (!select.value) select.value = defaultSeat(); // a choice the server no longer offers
    else if (previous[seat - 2]) select.dataset.chosen = "true";
    seatList.append(el("li", { class: "seat-row" },
      el("label", { for: id, class: "seat-no" }, t("lobby.seat_no", { n: seat })), select));
  }
  renderFirstSeat();
  applyRated();
}

/** A rated game is for two to four people: while it is chosen, every other seat is a person's and stays so. */
function applyRated() {
  const rated = form.elements.rated.checked;
  const alone = form.querySelector("#seat-count input[value='1']");
  alone.disabled = rated;
  if (rated && alone.checked) {
    form.querySelector("#seat-count input[value='2']").checked = true;
    renderSeats(); // comes back here with two seats
    return;
  }
  for (const select of seatList.querySelectorAll("select")) {
    if (rated) select.value = "human";
    select.disabled = rated;
  }
}

/** Who takes the first turn: chosen by chance, or a seat. */
function renderFirstSeat() {
  const previous = firstSeat.value;
  firstSeat.replaceChildren(el("option", { value: "" }, t("lobby.by_chance")),
    ...Array.from({ length: seatCount() }, (_, i) => el("option", { value: String(i) },
      i === 0 ? t("lobby.seat_you") : t("lobby.seat_no", { n: i + 1 }))));
  firstSeat.value = Number(previous) < seatCount() ? previous : "";
}

/** Under the seats, what each of the "more bots" is: a line each (the levels' ratings say enough). */
function renderMoreBots() {
  const levelNames = new Set(botChoices.levels.map((level) => level.name));
  const others = botChoices.bots.filter((bot) => !levelNames.has(bot.name));
  const holder = document.getElementById("more-bots");
  holder.hidden = others.length === 0;
  holder.replaceChildren(el("summary", {}, t("lobby.more_bots_about")),
    el("ul", {}, others.map((bot) => el("li", { "data-bot": bot.name },
      el("strong", {}, levelWord(bot.name)), `: ${botAbout(bot.name, bot.description)}`))));
}

async function loadBots() {
  try {
    const answer = await api("/api/bots");
    botChoices = { levels: answer.levels || [], bots: answer.bots || [] };
  } catch (error) {
    createError.textContent = t("lobby.bots_failed", { error: error.message });
  }
  renderSeats(); // until now a seat could only be for a person
  renderMoreBots();
}

async function loadEditions() {
  const holder = document.getElementById("editions");
  try {
    const editions = await api("/api/editions");
    editionNames = Object.fromEntries(editions.map((e) => [e.id, e.name]));
    // The edition of the reader's language comes first: a German page offers the German edition.
    const chosen = editions.find((e) => e.language === currentLanguage()) || editions.find((e) => e.default)
      || editions[0];
    holder.replaceChildren(...editions.map((e) => el("label", { class: "choice" },
      el("input", { type: "radio", name: "edition", value: e.id, checked: e === chosen }), ` ${e.name}`)));
  } catch (error) {
    holder.replaceChildren(el("span", { class: "form-error" }, t("lobby.editions_failed", { error: error.message })));
  }
}

function requireName() {
  const name = nameInput.value.trim();
  if (!name) {
    nameInput.setAttribute("aria-invalid", "true");
    nameInput.focus();
    return null;
  }
  nameInput.removeAttribute("aria-invalid");
  remembered.setName(name);
  return name;
}

/** Go to the seat link the server gave, remembering the token for this game on this device. */
function enterSeat(answer, edition) {
  remembered.setSeat(answer.id, answer.token, { seat: answer.seat, edition });
  location.href = answer.url || `${playPath(answer.id)}#token=${encodeURIComponent(answer.token)}`;
}

form.addEventListener("change", (event) => {
  if (event.target.dataset.seat) event.target.dataset.chosen = "true"; // kept when the seats are drawn again
  if (event.target.name === "seats") renderSeats();
  if (event.target.name === "rated") applyRated();
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  createError.textContent = "";
  const name = requireName();
  if (!name) {
    createError.textContent = t("lobby.name_needed");
    return;
  }
  const edition = form.elements.edition ? form.elements.edition.value : "";
  if (!edition) {
    createError.textContent = t("lobby.edition_needed");
    return;
  }
  const seats = [{ kind: SeatKind.HUMAN }];
  for (const select of seatList.querySelectorAll("select")) {
    seats.push(select.value === "human" ? { kind: SeatKind.HUMAN } : { kind: SeatKind.BOT, bot: select.value });
  }
  const body = {
    edition,
    name,
    seats,
    options: {
      days: Number(form.elements.days.value),
      swap: form.elements.swap.checked,
      open_hands: form.elements.open_hands.checked,
      first_seat: firstSeat.value === "" ? null : Number(firstSeat.value), // null: chosen by chance
    },
  };
  if (form.elements.rated.checked) body.rated = true; // the other seats are people's (applyRated)
  const pace = form.elements.pace.value;
  if (pace) {
    const [kind, perMove, bank] = pace.split(":");
    body.pace = { kind, per_move: Number(perMove), bank: Number(bank) };
  }
  const turnLimit = form.elements.turn_limit.value.trim();
  if (turnLimit) {
    if (!/^\d+$/.test(turnLimit) || Number(turnLimit) < 1) {
      createError.textContent = t("lobby.turn_limit_bad");
      form.elements.turn_limit.focus();
      return;
    }
    body.options.turn_limit = Number(turnLimit);
  }
  const button = document.getElementById("create-button");
  button.disabled = true;
  button.textContent = t("lobby.creating");
  try {
    enterSeat(await api("/api/games", { method: "POST", body }), edition);
  } catch (error) {
    createError.textContent = t("lobby.create_failed", { error: error.message });
    button.disabled = false;
    button.textContent = t("lobby.create");
  }
});

async function join(game) {
  gamesError.textContent = "";
  if (game.rated && !(await signedIn())) { // the server would refuse too: say why, and where to sign in
    gamesError.replaceChildren(t("lobby.rated_join_signed_out"), " ",
      el("a", { href: "/account" }, t("lobby.rated_sign_in")));
    return;
  }
  const name = requireName();
  if (!name) {
    gamesError.textContent = t("lobby.name_before_join");
    return;
  }
  try {
    enterSeat(await api(`/api/games/${encodeURIComponent(game.id)}/join`, { method: "POST", body: { name } }),
      game.edition);
  } catch (error) {
    gamesError.textContent = t("lobby.join_failed", { error: error.message });
    refreshGames();
  }
}

function seatChip(seat) {
  if (seat.kind === SeatKind.BOT) {
    // The server names a bot seat by its level, in the language the lobby asked for ("Bot (leicht)").
    const label = seat.name || t("lobby.seat_level", { level: levelWord(seat.bot) });
    return el("span", { class: "chip bot", title: t("lobby.bot_level", { level: levelWord(seat.bot) }) }, label);
  }
  if (!seat.taken) return el("span", { class: "chip free" }, t("lobby.free_seat"));
  return el("span", { class: "chip human" }, seat.name || t("lobby.player_n", { n: seat.seat + 1 }), accountMark(seat),
    botMark(seat));
}

function gameItem(game) {
  const mine = remembered.token(game.id);
  const free = game.seats.filter((s) => s.kind === SeatKind.HUMAN && !s.taken).length;
  const status = game.status === MatchStatus.WAITING ? tn("lobby.waiting_for", free) : t(`status.${game.status}`);
  const title = editionNames[game.edition] || game.edition;
  const actions = [];
  if (mine) {
    actions.push(el("a", { class: "button primary", href: `${playPath(game.id)}#token=${encodeURIComponent(mine)}`,
      "aria-label": t("lobby.resume_label", { title, id: game.id }) }, t("lobby.resume")));
  } else if (game.status === MatchStatus.WAITING && free > 0) {
    actions.push(el("button", { type: "button", class: "primary", onclick: () => join(game),
      "aria-label": t("lobby.join_label", { title, id: game.id }), "data-join": game.id }, t("lobby.join")));
  }
  actions.push(el("a", { class: "button", href: `${playPath(game.id)}#spectate`,
    "aria-label": t("lobby.watch_label", { title, id: game.id }), "data-spectate": game.id }, t("lobby.watch")));
  const rules = [tn("lobby.days", game.options ? game.options.days : 10), paceText(game.pace) || t("lobby.no_clock")];
  const rated = game.rated ? el("span", { class: "chip rated", title: t("lobby.rated_mark_title") },
    t("lobby.rated_mark")) : null;
  return el("li", { class: `game-item ${game.status}`, "data-game": game.id, "data-rated": String(Boolean(rated)) },
    el("div", { class: "game-head" }, el("strong", {}, title), rated,
      el("span", { class: `status ${game.status}` }, status),
      el("span", { class: "muted small" }, rules.join(" · ")),
      el("span", { class: "muted small" }, timeAgo(game.created))),
    el("div", { class: "chips" }, game.seats.map(seatChip)),
    el("div", { class: "actions" }, actions));
}

/** Previous and next buttons for one of the lists. */
function pager(show, answer) {
  const holder = document.getElementById(show === "joinable" ? "game-pager" : "playing-pager");
  const go = (page) => () => { pages[show] = page; refreshGames(); };
  holder.replaceChildren(...(answer.pages > 1 ? [
    el("button", { type: "button", class: "quiet", disabled: answer.page <= 1, onclick: go(answer.page - 1),
      "data-page": "previous" }, t("lobby.newer")),
    el("span", { class: "muted small" }, tn("lobby.page", answer.total, { page: answer.page, pages: answer.pages })),
    el("button", { type: "button", class: "quiet", disabled: answer.page >= answer.pages, onclick: go(answer.page + 1),
      "data-page": "next" }, t("lobby.older")),
  ] : []));
}

async function loadPage(show) {
  let answer = await api(`/api/games?show=${show}&page=${pages[show]}`);
  if (answer.page > answer.pages) { // the list got shorter: show its last page
    pages[show] = answer.pages;
    answer = await api(`/api/games?show=${show}&page=${pages[show]}`);
  }
  pager(show, answer);
  return answer.games;
}

async function refreshGames() {
  try {
    const [open, playing] = await Promise.all([loadPage("joinable"), loadPage("playing")]);
    gameList.replaceChildren(...(open.length ? open.map(gameItem)
      : [el("li", { class: "muted" }, t("lobby.no_open"))]));
    playingList.replaceChildren(...(playing.length ? playing.map(gameItem)
      : [el("li", { class: "muted" }, t("lobby.none_now"))]));
    if (listFailed) gamesError.textContent = "";
    listFailed = false;
    renderMyGames([...open, ...playing]);
  } catch (error) {
    gamesError.textContent = t("lobby.list_failed", { error: error.message });
    listFailed = true;
  }
}

const summaries = new Map(); // game id -> GET /api/games/{id}: a finished game's is kept, the others are read again

/** The summaries of the games this device holds a seat in that the lists did not show (a finished one is read once). */
async function mySummaries(ids, known) {
  await Promise.all(ids.filter((id) => !known.has(id) && summaries.get(id)?.status !== MatchStatus.OVER).map(async (id) => {
    try {
      summaries.set(id, await api(`/api/games/${encodeURIComponent(id)}`));
    } catch {
      // a game the server no longer has keeps its line, without the details
    }
  }));
  for (const [id, game] of known) summaries.set(id, game);
}

/** A remembered game's state: waiting for players, being played, or over (and how it ended when not played out). */
function myStatus(game, me) {
  if (game.status === MatchStatus.OVER && typeof game.winner === "number") { // a forfeit's winner, when the summary names one
    return game.winner === me ? t("lobby.you_won")
      : t("lobby.won_by", { name: game.seats[game.winner]?.name || "?" });
  }
  if (game.status === MatchStatus.WAITING) {
    return tn("lobby.waiting_for", game.seats.filter((s) => s.kind === SeatKind.HUMAN && !s.taken).length);
  }
  if (game.status === MatchStatus.OVER && game.ended) return t(`lobby.ended_${game.ended}`);
  return t(`status.${game.status}`);
}

async function renderMyGames(listed) {
  const known = new Map(listed.map((g) => [g.id, g]));
  const mine = Object.entries(remembered.games()).sort((a, b) => (b[1].joined || 0) - (a[1].joined || 0)).slice(0, 8);
  await mySummaries(mine.map(([id]) => id), known);
  myGames.replaceChildren(...(mine.length ? mine.map(([id, seat]) => {
    const game = summaries.get(id);
    const title = editionNames[seat.edition] || seat.edition || t("lobby.game");
    const me = seat.seat ?? game?.seats.find((s) => s.name === remembered.name())?.seat; // older entries lack it
    const others = game ? game.seats.filter((s) => s.seat !== me && (s.name || s.kind !== SeatKind.HUMAN)) : [];
    const against = others.map((s) => s.name || s.bot || "?").join(", ");
    return el("li", { class: `game-item ${game ? game.status : ""}`, "data-mine": id },
      el("div", { class: "game-head" }, el("strong", {}, title),
        game ? el("span", { class: `status ${game.status}`, "data-state": "" }, myStatus(game, me)) : null,
        against ? el("span", { "data-against": "" }, t("lobby.mine_against", { names: against })) : null,
        game ? el("span", { class: "muted small", "data-when": "" }, timeAgo(game.created)) : null,
        el("span", { class: "muted small" }, id)),
      el("div", { class: "actions" },
        el("a", { class: "button", href: `${playPath(id)}#token=${encodeURIComponent(seat.token)}` }, t("lobby.open")),
        el("button", { type: "button", class: "quiet", "aria-label": t("lobby.forget_label", { id }),
          onclick: () => { remembered.forget(id); renderMyGames(listed); } }, t("lobby.forget"))));
  }) : [el("li", { class: "muted" }, t("lobby.none_yet"))]));
}

renderSeats();
Promise.all([loadBots(), loadEditions()]).then(async () => {
  document.getElementById("create-button").disabled = false; // disabled in the page until the form is wired
  await startPairing(editionNames, form.elements.edition ? form.elements.edition.value : "", botChoices.levels);
  markReady();
  refreshGames();
});
setInterval(() => {
  if (!document.hidden) refreshGames();
}, REFRESH_MS);

// The puzzles page: a position from a real game, one answer to find. The server hands out puzzles without
// their solution and judges each answer in words (the engine's), so this page knows no rule of the game.
// The player's puzzle rating lives on this device (puzzles/rating.js).

import * as rating from "../puzzles/rating.js";
import { el } from "../shared/dom.js";
import { loadEdition } from "../shared/edition.js";
import { currentLanguage, dateText, startLanguage, t, tn } from "../shared/i18n.js";
import { MapView } from "../shared/map.js";
import { colourBlindPalette, preferences } from "../shared/preferences.js";
import { api } from "../shared/rest.js";
import { whoBar } from "../shared/who.js";
import { miniRack, tileCard } from "../table/tiles.js";

await startLanguage();
document.title = t("puzzles.page_title");
document.getElementById("preferences").replaceWith(preferences());
whoBar().then((bar) => document.getElementById("who").replaceWith(bar));

const $ = (id) => document.getElementById(id);
const EDITION_KEY = "tendays.puzzle_edition";
const page = { edition: null, info: null, map: null, puzzle: null, pile: null, day: null, answered: false };

function showError(error) {
  $("puzzle-error").textContent = error ? error.message || String(error) : "";
}

function showRating(change = null) {
  const { rating: value, solved, failed } = rating.remembered();
  const signed = change === null ? "" : ` (${change >= 0 ? "+" : "−"}${Math.abs(change)})`;
  $("rating").textContent = `${t("puzzles.rating", { rating: value })}${signed} · ${t("puzzles.record",
    { solved, failed })}`;
}

function rememberEdition(id) {
  try {
    localStorage.setItem(EDITION_KEY, id);
  } catch {
    // no storage: the choice lasts for this page only
  }
}

function keptEdition() {
  try {
    return localStorage.getItem(EDITION_KEY);
  } catch {
    return null;
  }
}

function chosenEdition(editions) {
  const kept = keptEdition();
  const ids = editions.map((e) => e.id);
  if (ids.includes(kept)) return kept;
  const spoken = editions.find((e) => e.language === currentLanguage());
  return (spoken || editions.find((e) => e.default) || editions[0]).id;
}

async function useEdition(id) {
  page.edition = id;
  const { edition, geometry } = await loadEdition(id, api, { lang: currentLanguage(), colourBlind: colourBlindPalette() });
  page.info = edition;
  page.map = new MapView($("map"), edition, geometry, (text) => { $("map-explain").textContent = text; });
}

function describeChoice() {
  const { puzzle, pile, day } = page;
  if (!puzzle) return "";
  if (puzzle.kind === "block") return pile ? t("puzzles.chosen_block", { pile }) : t("puzzles.choose_block");
  if (pile && day) return t("puzzles.chosen_finish", { pile, day });
  if (pile) return t("puzzles.chosen_pile", { pile });
  if (day) return t("puzzles.chosen_day", { day });
  return t("puzzles.choose_finish");
}

function ready() {
  const { puzzle, pile, day } = page;
  return Boolean(puzzle && pile && (puzzle.kind === "block" || day));
}

function renderChoice() {
  for (const node of document.querySelectorAll("[data-choose-pile]")) {
    node.setAttribute("aria-pressed", String(Number(node.dataset.choosePile) === page.pile));
  }
  for (const node of document.querySelectorAll("[data-choose-day]")) {
    const chosen = Number(node.dataset.chooseDay) === page.day;
    node.setAttribute("aria-pressed", String(chosen));
    node.classList.toggle("selected", chosen);
  }
  $("choice").textContent = describeChoice();
  $("check").disabled = !ready();
}

function renderRack(puzzle) {
  const edition = page.info;
  const choosing = puzzle.kind === "finish";
  $("rack").replaceChildren(...puzzle.rack.map((tileId, i) => {
    const day = i + 1;
    const content = [el("span", { class: "day-no" }, t("rack.day", { day })), tileCard(edition, tileId)];
    const node = choosing
      ? el("button", { type: "button", class: "day active", "data-choose-day": day, "aria-pressed": "false",
        onclick: () => { page.day = day; renderChoice(); } }, ...content)
      : el("div", { class: "day" }, ...content);
    return el("li", { class: "rack-item" }, node);
  }));
}

function renderPiles(puzzle) {
  const edition = page.info;
  $("piles").replaceChildren(...puzzle.piles.map((pile, i) => {
    const number = i + 1;
    const top = pile[pile.length - 1];
    return el("button", { type: "button", class: "pile-choice", "data-choose-pile": number, "aria-pressed": "false",
      onclick: () => { page.pile = number; renderChoice(); } },
    el("span", { class: "slot-label" }, t("puzzles.pile", { pile: number }),
      pile.length > 1 ? el("span", { class: "depth", title: tn("puzzles.below", pile.length - 1) },
        ` +${pile.length - 1}`) : null),
    tileCard(edition, top));
  }));
}

async function show(puzzle, dailyDate = null) {
  if (puzzle.edition !== page.edition) await useEdition(puzzle.edition);
  Object.assign(page, { puzzle, pile: null, day: null, answered: false });
  const edition = page.info;
  $("puzzles").dataset.puzzle = puzzle.id;
  $("puzzles").dataset.kind = puzzle.kind;
  linkTo(dailyDate ? null : puzzle.id);
  const block = puzzle.kind === "block";
  const title = t(block ? "puzzles.block_title" : "puzzles.finish_title");
  const which = t("puzzles.number", { id: puzzle.id, rating: puzzle.rating });
  $("task-title").textContent = dailyDate ? `${t("puzzles.daily_of", { date: dateText(dailyDate) })}: ${title}` : title;
  $("task").textContent = `${block ? t("puzzles.block_task", { tile: edition.name(puzzle.held) })
    : t("puzzles.finish_task")} (${which})`;
  $("opponent").hidden = !block;
  $("held").hidden = !block;
  if (block) {
    $("opponent-rack").replaceWith(Object.assign(miniRack(edition, puzzle.opponent), { id: "opponent-rack" }));
    $("held").replaceChildren(el("span", { class: "slot-label" }, t("puzzles.held")), tileCard(edition, puzzle.held));
  }
  renderRack(puzzle);
  renderPiles(puzzle);
  $("result").hidden = true;
  $("explanation").textContent = "";
  $("solution").replaceChildren();
  $("map-explain").textContent = "";
  page.map.showJourney(puzzle.rack, null, { label: t("map.your_journey") });
  renderChoice();
}

// The address names the puzzle on screen (not the daily one), so it can be bookmarked or sent to a friend.
function linkTo(id) {
  const address = new URL(window.location.href);
  if (id) address.searchParams.set("id", id);
  else address.searchParams.delete("id");
  window.history.replaceState(null, "", address);
}

// The puzzle the address asks for, as [edition, id]: its edition is the start of its id ("usa-b0012").
function linkedPuzzle(editions) {
  const id = new URLSearchParams(window.location.search).get("id");
  if (!id) return null;
  const edition = id.split("-")[0];
  return [editions.some((e) => e.id === edition) ? edition : chosenEdition(editions), id];
}

async function load(path, dailyDate = false) {
  showError(null);
  try {
    const puzzle = await api(path);
    await show(puzzle, dailyDate ? puzzle.daily : null);
  } catch (error) {
    showError(error);
    return false;
  }
  return true;
}

async function nextPuzzle() {
  showError(null);
  const { rating: value } = rating.remembered();
  try {
    let puzzle = null;
    for (let tries = 0; tries < 3 && (!puzzle || (page.puzzle && puzzle.id === page.puzzle.id)); tries += 1) {
      const seed = Math.floor(Math.random() * 2 ** 31);
      puzzle = await api(`/api/puzzles/${encodeURIComponent(page.edition)}/next?rating=${value}&seed=${seed}`);
    }
    await show(puzzle);
  } catch (error) {
    showError(error);
  }
}

async function showSolution() {
  const { puzzle } = page;
  try {
    const answer = await api(`/api/puzzles/${encodeURIComponent(puzzle.edition)}/${encodeURIComponent(puzzle.id)}/solution`);
    $("solution").replaceChildren(t("puzzles.the_answer", { why: answer.explanation }));
    page.map.showJourney(answer.rack, answer.verdict, { label: t(puzzle.kind === "block" ? "puzzles.their_journey"
      : "map.your_journey") });
  } catch (error) {
    showError(error);
  }
}

async function check() {
  const { puzzle, pile, day } = page;
  if (!ready()) return;
  showError(null);
  let answer;
  try {
    answer = await api(`/api/puzzles/${encodeURIComponent(puzzle.edition)}/${encodeURIComponent(puzzle.id)}/answer`,
      { method: "POST", body: puzzle.kind === "block" ? { pile } : { pile, day } });
  } catch (error) {
    showError(error);
    return;
  }
  if (page.puzzle !== puzzle) return; // another puzzle was opened meanwhile
  let change = null;
  if (!page.answered) { // only the first answer to a puzzle moves the rating
    const before = rating.remembered().rating;
    change = rating.record(puzzle.rating, answer.correct).rating - before;
    page.answered = true;
  }
  showRating(change);
  $("result").hidden = false;
  $("result").classList.toggle("right", answer.correct);
  $("result").classList.toggle("wrong", !answer.correct);
  $("explanation").textContent = answer.explanation;
  $("solution").replaceChildren(answer.correct ? "" : el("span", {}, t("puzzles.try_again"), " ",
    el("button", { type: "button", id: "show-solution", class: "quiet", onclick: showSolution }, t("puzzles.show_solution"))));
  page.map.showJourney(answer.rack, answer.verdict, { label: t(puzzle.kind === "block" ? "puzzles.their_journey"
    : "puzzles.after_answer") });
  if (answer.correct) $("next").focus();
}

async function start() {
  showRating();
  let editions;
  try {
    editions = await api("/api/editions");
  } catch (error) {
    showError(error);
    return;
  }
  const linked = linkedPuzzle(editions);
  const chosen = linked ? linked[0] : chosenEdition(editions);
  $("editions").append(...editions.map((e) => el("label", { class: "choice" },
    el("input", { type: "radio", name: "edition", value: e.id, checked: e.id === chosen, onchange: async () => {
      rememberEdition(e.id);
      await useEdition(e.id);
      nextPuzzle();
    } }), ` ${e.name}`)));
  $("daily").addEventListener("click", () => load(`/api/puzzles/${encodeURIComponent(page.edition)}/daily`, true));
  $("next").addEventListener("click", nextPuzzle);
  $("check").addEventListener("click", check);
  await useEdition(chosen);
  const opened = linked && await load(`/api/puzzles/${encodeURIComponent(chosen)}/${encodeURIComponent(linked[1])}`);
  if (!opened) {
    const problem = $("puzzle-error").textContent;
    await load(`/api/puzzles/${encodeURIComponent(chosen)}/daily`, true);
    if (problem) showError(new Error(problem)); // a link to no puzzle says so above today's puzzle
  }
  document.body.dataset.ready = "true";
}

start();

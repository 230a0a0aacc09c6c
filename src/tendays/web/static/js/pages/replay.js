// The replay: a finished game (or a record opened from a file) stepped through move by move, with the table's own
// panels (map, piles, log) and every rack with its verdict. The server replays the record and sends every
// position; the page knows no rule. ← → and the slider step; the link, the record and the analysis are beside them.

import { analysisText, installAnalysis } from "../replay/analysis.js";
import { showChat } from "../replay/chat.js";
import { frameGame, moveSentences } from "../replay/frames.js";
import { racksPanel } from "../replay/racks.js";
import { el, markReady } from "../shared/dom.js";
import { loadEdition } from "../shared/edition.js";
import { playPath, sentence } from "../shared/format.js";
import { currentLanguage, startLanguage, t } from "../shared/i18n.js";
import { colourBlindPalette, preferences } from "../shared/preferences.js";
import { api, ApiError } from "../shared/rest.js";
import { errorPanel } from "../table/banner.js";
import { mapPanel } from "../table/journey.js";
import { logPanel } from "../table/log.js";
import { pilesPanel } from "../table/piles.js";
import { createTableState } from "../table/state.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

await startLanguage();
$("preferences").replaceWith(preferences());

const store = createTableState();
let replay = null; // the server's replay of the game on screen
let chosenSeat = null; // the seat whose journey the reader put on the map (null: the mover's)
let analysis = null;

function showError(message) {
  store.update({ error: message });
}

/** Show position `n` (after n moves), kept in the address so a link opens it again. */
function goTo(n) {
  if (!replay) return;
  const number = Math.max(0, Math.min(replay.frames.length - 1, Number(n) || 0));
  const game = frameGame(replay, number);
  const mover = game.move ? game.move.seat : 0;
  if (replay.id) history.replaceState(null, "", `${location.pathname}#move=${number}`);
  store.update({ game, version: number, mapSeat: chosenSeat ?? mover, last: number === replay.frames.length - 1 });
}

function controlsPanel(state) {
  const number = state.version;
  const total = replay.frames.length - 1;
  const slider = $("replay-slider");
  slider.max = String(total);
  slider.value = String(number);
  slider.setAttribute("aria-valuetext", t("replay.move_of", { n: number, total }));
  $("replay-first").disabled = $("replay-back").disabled = number === 0;
  $("replay-forward").disabled = $("replay-last").disabled = number === total;
  const said = moveSentences(replay, number).join(" · ");
  $("replay-move").textContent = number === 0 ? t("replay.start", { total })
    : `${t("replay.move_of", { n: number, total })}: ${said}`;
  const judged = analysisText(analysis, number);
  $("analysis-move").textContent = judged.text;
  $("analysis-move").classList.toggle("lengthened", judged.lengthened);
  $("replay-link").value = location.href;
}

const drag = { makeDraggable() {} }; // nothing is moved in a replay
const panels = [pilesPanel({ move() {} }, drag), mapPanel(), racksPanel((seat) => {
  chosenSeat = seat;
  store.update({ mapSeat: seat });
}), logPanel(), controlsPanel];
const errors = errorPanel();

store.subscribe((state) => {
  errors(state);
  const ready = Boolean(replay && state.game && state.edition && state.edition.id === state.game.edition);
  $("table").hidden = !ready;
  if (!ready) return;
  document.body.dataset.version = String(state.version);
  for (const draw of panels) draw(state);
});

/** Put a replay on screen: `source` is the record's address (a finished game) or the opened file's text. */
async function show(answer, download) {
  const loaded = await loadEdition(answer.edition, api, { colourBlind: colourBlindPalette() });
  replay = answer;
  analysis = null;
  chosenSeat = null;
  const title = loaded.edition.title;
  $("game-title").textContent = `${title} · ${t("replay.title")}`;
  document.title = t("replay.page_title", { title });
  const result = answer.winner === null ? (answer.ended ? t("replay.ended") : t("end.nobody"))
    : t("end.wins", { name: answer.seats[answer.winner].name });
  // a rated game: aborted (no result at all), or won but moving no rating (capped, annulled)
  const uncounted = { capped: "replay.capped", annulled: "replay.annulled" }[answer.rated_outcome];
  $("replay-result").textContent = answer.rated_outcome === "aborted" ? t("replay.aborted")
    : uncounted ? `${result} · ${t(uncounted)}` : result;
  $("replay-download").href = download.href;
  $("replay-download").download = download.name;
  const early = Boolean(answer.id && answer.ended); // ended early: what its watchers saw, no record, no analysis
  $("replay-hidden").hidden = !early;
  $("replay-hidden").textContent = early ? t(answer.racks_hidden ? "replay.hidden" : "replay.watched") : "";
  $("replay-download").hidden = early;
  $("replay-share").hidden = $("replay-link").hidden = !answer.id;
  $("replay-analyse").hidden = !answer.id || early;
  $("analysis-status").textContent = "";
  $("analysis-move").textContent = "";
  showChat(answer.chat);
  $("replay-open").hidden = Boolean(answer.id);
  $("replay-wait").textContent = "";
  store.update({ edition: loaded.edition, geometry: loaded.geometry, error: null });
  const asked = Number(new URLSearchParams(location.hash.slice(1)).get("move"));
  goTo(answer.id && Number.isInteger(asked) && asked > 0 ? asked : 0);
}

/** Open a record from a file: the server checks it and answers its replay, or says why not. */
async function openFile(file) {
  const text = await file.text();
  let response;
  try {
    response = await fetch("/api/replays", { method: "POST", body: text,
      headers: { "Content-Type": "application/json", "Accept-Language": currentLanguage() } });
  } catch {
    throw new ApiError(0, t("api.unreachable"));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, (data && data.detail) || response.statusText);
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  history.replaceState(null, "", "/replay");
  await show(data, { href: url, name: file.name });
}

function step(by) {
  if (replay) goTo(store.state.version + by);
}

$("replay-first").addEventListener("click", () => goTo(0));
$("replay-back").addEventListener("click", () => step(-1));
$("replay-forward").addEventListener("click", () => step(1));
$("replay-last").addEventListener("click", () => goTo(Infinity));
$("replay-slider").addEventListener("input", (event) => goTo(event.target.value));
$("error-close").addEventListener("click", () => store.update({ error: null }));
$("replay-share").addEventListener("click", () => {
  navigator.clipboard.writeText(location.href).then(() => { $("replay-share").textContent = t("banner.copied"); },
    () => { $("replay-link").select(); });
});
$("replay-file").addEventListener("change", (event) => {
  const [file] = event.target.files;
  if (file) openFile(file).catch((error) => showError(t("replay.refused", { reason: error.message })));
  event.target.value = "";
});
document.addEventListener("keydown", (event) => {
  if (!replay || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest("input, select, textarea")) return; // the slider steps by itself
  const moves = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => goTo(0),
    End: () => goTo(Infinity) };
  if (moves[event.key]) {
    event.preventDefault();
    moves[event.key]();
  }
});
if (gameId) {
  installAnalysis(gameId, {
    onReady(answer) {
      analysis = answer;
      controlsPanel(store.state);
    },
    onError: showError,
    goTo,
  });
  try {
    const path = `/api/games/${encodeURIComponent(gameId)}`;
    const answer = await api(`${path}/replay`);
    await show(answer, { href: `${path}/record`, name: `tendays-${gameId}.json` });
  } catch (error) {
    const refused = error.status === 409 || error.status === 404; // still played, or no such game: said in words
    const said = refused ? [sentence(error.message)] : [];
    if (error.status === 409) said.push(" ", el("a", { href: playPath(gameId) }, t("replay.to_table")));
    $("replay-wait").replaceChildren(...said);
    if (!(error.status === 409 || error.status === 404)) showError(error.message);
  }
}
markReady();

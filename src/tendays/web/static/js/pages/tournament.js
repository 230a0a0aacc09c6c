// A tournament's page (/tournaments/{id}): its head and countdown, the buttons to join, withdraw or pause,
// the live standings, the games (watch those being played, replay those ended), the chat, and once it
// has finished the podium. While the page is in view it asks the server every two seconds; when the
// signed-in reader is given a new game, the page says so and goes to it.

import { signedIn } from "../shared/account_session.js";
import { markReady } from "../shared/dom.js";
import { playPath, sentence } from "../shared/format.js";
import { startLanguage, t } from "../shared/i18n.js";
import { preferences } from "../shared/preferences.js";
import { api, ApiError } from "../shared/rest.js";
import { whoBar } from "../shared/who.js";
import { installActions, showActions } from "../tournament/actions.js";
import { tournamentChat } from "../tournament/chat.js";
import { showGames } from "../tournament/games.js";
import { showClock, showHeader } from "../tournament/header.js";
import { showPodium } from "../tournament/podium.js";
import { showStandings } from "../tournament/standings.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 2000;
const id = decodeURIComponent(location.pathname.replace(/^\/tournaments\//, ""));

await startLanguage();
$("preferences").replaceWith(preferences());
whoBar().then((bar) => $("who").replaceWith(bar));

const session = await signedIn();
const editions = await api("/api/editions").catch(() => []);
const chat = tournamentChat(id, session);
let event = null;
let firstGame; // the reader's game when the page opened: only a game given later is gone to by itself
let loads = 0; // the answers shown (body[data-loads]: tests wait for a refresh)
const drawn = {}; // what each part shows, as JSON: a part is redrawn only when it changed

/** Draw a part from `data` unless it shows that already: a link a keyboard user is on keeps the focus. */
function redraw(part, data, draw) {
  const key = JSON.stringify(data);
  if (drawn[part] === key) return;
  drawn[part] = key;
  draw();
}

/** Say that the reader's game is ready, with its link; go to it if it came while the page was open. */
function showYourGame(game) {
  $("your-game").hidden = !game;
  if (!game) return;
  $("your-game-link").href = playPath(game);
  if (firstGame === undefined) return;
  if (game !== firstGame) location.assign(playPath(game));
}

async function load() {
  let answer;
  try {
    answer = await api(`/api/tournaments/${encodeURIComponent(id)}`);
  } catch (error) {
    $("event-error").textContent = sentence(error instanceof ApiError ? error.message : String(error));
    if (!event) { // no such tournament: no empty tables under the refusal
      $("event-name").textContent = t("tournaments.title");
      for (const part of document.querySelectorAll(".event-part")) part.hidden = true;
    }
    return;
  }
  $("event-error").textContent = "";
  event = answer;
  const me = session ? session.name : null;
  showHeader(event, editions);
  showActions(event, session);
  redraw("podium", [event.status, event.podium], () => showPodium(event, me));
  redraw("standings", [event.kind, event.standings], () => showStandings(event, me));
  redraw("games", event.games, () => showGames(event, me));
  const game = event.me ? event.me.game || null : null;
  showYourGame(game);
  if (firstGame === undefined) firstGame = game;
  loads += 1;
  document.body.dataset.loads = String(loads);
}

async function tick() {
  if (document.visibilityState === "visible") await Promise.all([load(), chat.refresh()]);
  setTimeout(tick, POLL_MS);
}

installActions(id, load);
await Promise.all([load(), chat.refresh()]);
setInterval(() => {
  if (event) showClock(event);
}, 1000);
setTimeout(tick, POLL_MS);
markReady();

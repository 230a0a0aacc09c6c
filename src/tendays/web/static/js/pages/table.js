// The table: one seat's live view of a game (or a spectator's), with the map, the rack, the piles,
// the players and the log. Every change comes from the server's state messages into one store; each
// panel draws itself from the store when what it shows has changed. The page only asks the server.

import { signedIn } from "../shared/account_session.js";
import { SIGNED_IN } from "../shared/connection.js";
import { markReady } from "../shared/dom.js";
import { playPath } from "../shared/format.js";
import { startLanguage } from "../shared/i18n.js";
import { preferences } from "../shared/preferences.js";
import { MatchStatus } from "../shared/protocol.js";
import { api } from "../shared/rest.js";
import { remembered } from "../shared/storage.js";
import { createActions } from "../table/actions.js";
import { announcerPanel } from "../table/announce.js";
import { connectionPanel, errorPanel, headerPanel, turnPanel } from "../table/banner.js";
import { chatPanel, installChat } from "../table/chat.js";
import { clockPanel } from "../table/clock.js";
import { installDrag } from "../table/drag.js";
import { installJoin, offerJoin } from "../table/join.js";
import { endPanel, mapPanel } from "../table/journey.js";
import { installKeys } from "../table/keys.js";
import { logPanel } from "../table/log.js";
import { pilesPanel } from "../table/piles.js";
import { playersPanel } from "../table/players.js";
import { presencePanel } from "../table/presence.js";
import { promptPanel } from "../table/prompt.js";
import { rackPanel } from "../table/rack.js";
import { createSession } from "../table/session.js";
import { createTableState } from "../table/state.js";
import { showTournamentLink } from "../table/tournament_link.js";
import { followTv, onTv, tvGame } from "../table/tv.js";

const $ = (id) => document.getElementById(id);

await startLanguage(); // the reader's language, as on every page: chosen here, else the browser's
$("preferences").replaceWith(preferences());
// On /tv the game is the best-rated one being played now, watched as a spectator (table/tv.js).
const tv = onTv();
const gameId = tv ? await tvGame() : decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

const store = createTableState();
store.update({ muted: remembered.muted(gameId) });
let session = null;
const actions = createActions(store, (message) => session.send(message), gameId);
const drag = installDrag(store, actions);
const tvGone = tv ? followTv(store) : null;
session = createSession(gameId, store, actions, { onRefused: tv ? tvGone : offer });

const linkPanels = [connectionPanel(), errorPanel()];
const panels = [
  headerPanel(), turnPanel(gameId), clockPanel(), presencePanel(actions), promptPanel(), pilesPanel(actions, drag),
  rackPanel(store, actions, drag), mapPanel(), playersPanel(), chatPanel(actions), logPanel(), endPanel(actions),
  announcerPanel(),
];

/** A selector that finds "the same" control again after a panel is drawn anew, so keyboard focus stays. */
function focusKey(node) {
  if (!node || node === document.body) return null;
  if (node.id) return `#${node.id}`;
  const day = node.closest("#rack .day");
  if (day) return `#rack .day[data-day='${day.dataset.day}']`;
  const pile = node.closest(".discard-pile");
  if (pile) return `.discard-pile[data-pile='${pile.dataset.pile}'] button`;
  if (node.closest(".draw-pile")) return ".draw-pile button";
  const end = node.closest(".end-rack");
  if (end) return `.end-rack[data-seat='${end.dataset.seat}'] button`;
  return null;
}

function draw(state) {
  for (const drawPanel of linkPanels) drawPanel(state);
  const game = state.game;
  // A game that is over can be watched again, move by move, on its replay page.
  $("replay-link").hidden = !(game && game.status === MatchStatus.OVER);
  $("replay-link").href = `/replay/${encodeURIComponent(gameId)}`;
  const ready = Boolean(game && state.edition && state.edition.id === game.edition);
  $("table").hidden = !ready;
  if (!ready) return;
  // The version shown, for anyone (tests, tools) that waits for the table to change.
  document.body.dataset.version = String(state.version);
  for (const drawPanel of panels) drawPanel(state);
}

function render(state) {
  const before = document.activeElement;
  const key = focusKey(before);
  const keyboard = Boolean(before && before.matches(":focus-visible"));
  draw(state);
  if (key && (!document.activeElement || document.activeElement === document.body)) {
    let again = document.querySelector(key);
    if ((!again || again.disabled) && keyboard) {
      // The control is gone or disabled (a move was made): go on to the next thing the player can do.
      again = document.querySelector("#table button.day.active, #table [data-move]:not([disabled])");
    }
    if (again && !again.disabled) again.focus();
  }
}

store.subscribe(render);

/** Sit at the table with a seat token, or watch (token null). */
function sit(token) {
  $("join").hidden = true;
  session.start(token);
  showTournamentLink(gameId); // the join panel, when it was offered, has shown it already
}

/** A browser signed in to the account that holds a seat here sits at it, on any device (no seat link needed). */
async function resumeSignedIn() {
  if (!(await signedIn())) return;
  try {
    await api(`/api/games/${encodeURIComponent(gameId)}/seat`);
  } catch {
    return; // no seat of this account here: the offer to join or watch stays
  }
  sit(SIGNED_IN);
}

/** Offer to join or to watch instead of sitting at the table. */
function offer() {
  session.stop();
  offerJoin(gameId);
}

installJoin(gameId, sit);
installChat(actions);
installKeys();
$("hint-button").addEventListener("click", actions.askHint);
$("error-close").addEventListener("click", actions.hideError);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && store.state.selectedDay !== null) actions.select(null);
});

// The seat token comes from the link (#token=...), else from this device's memory; with neither, offer to
// join or to watch.
const params = new URLSearchParams(location.hash.slice(1));
const fromLink = params.get("token");
if (tv) {
  sit(null);
} else if (fromLink) {
  remembered.setSeat(gameId, fromLink);
  sit(fromLink);
} else if (params.has("spectate")) {
  sit(null);
} else if (remembered.token(gameId)) {
  const token = remembered.token(gameId);
  history.replaceState(null, "", `${playPath(gameId)}#token=${encodeURIComponent(token)}`);
  sit(token);
} else {
  offer();
  resumeSignedIn();
}
markReady();

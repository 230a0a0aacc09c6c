// "Play someone now" on the lobby page: a signed-in person seeks a rated game (edition, clock, optionally the
// opponents' ratings), waits (and may stop waiting), and is sent to the game once paired. After a wait the
// server sets, a game against a bot of their choosing (not rated) is offered instead.

import { signedIn } from "../shared/account_session.js";
import { el } from "../shared/dom.js";
import { playPath } from "../shared/format.js";
import { decimal, levelWord, t } from "../shared/i18n.js";
import { SeatKind } from "../shared/protocol.js";
import { api, ApiError } from "../shared/rest.js";
import { remembered } from "../shared/storage.js";

const POLL_MS = 500;

const panel = document.getElementById("quick-pair");
const form = document.getElementById("pair-form");
const signedOut = document.getElementById("pair-signed-out");
const waiting = document.getElementById("pair-waiting");
const status = document.getElementById("pair-status");
const waited = document.getElementById("pair-waited"); // not a live region: a screen reader hears no ticking
const error = document.getElementById("pair-error");
const botOffer = document.getElementById("pair-bot-offer");
const botSaid = document.getElementById("pair-bot-said"); // a live region: the offer is read out when it comes
const botSelect = document.getElementById("pair-bot");

let session = null; // {name, csrf} of the signed-in person (api() sends the token with every change)
let seek = null; // {id, edition, pace} while waiting
let timer = null;

function show(part) {
  form.hidden = part !== "form";
  waiting.hidden = part !== "waiting";
  signedOut.hidden = part !== "signed-out";
}

function paceOf(value) {
  if (!value) return null;
  const [kind, perMove, bank] = value.split(":");
  return { kind, per_move: Number(perMove), bank: Number(bank) };
}

function ratingOf(input) {
  if (input.validity.badInput) return NaN; // typed, but no number ("1e"): the field's value reads as empty
  const text = input.value.trim();
  return text === "" ? null : Number(text);
}

/** Show (or take away) the bot offer; its words go in the live region beside it, so they are heard. */
function offerBot(shown) {
  botOffer.hidden = !shown;
  botSaid.textContent = shown ? t("pair.bot_offer") : "";
}

function stopWaiting(message = "") {
  const focused = waiting.contains(document.activeElement); // its buttons vanish: the keyboard stays in the panel
  clearTimeout(timer);
  seek = null;
  offerBot(false);
  error.textContent = message;
  show("form");
  if (focused) document.getElementById("pair-button").focus();
}

/** Paired: remember the seat on this device and go to the table. */
function enter(answer) {
  clearTimeout(timer);
  if (answer.token) remembered.setSeat(answer.game, answer.token, { edition: seek ? seek.edition : "" });
  seek = null;
  location.href = answer.url || playPath(answer.game);
}

function waitedText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** Whether `asked` is still the search a look should answer for: not replaced, and not being stopped. */
function current(asked) {
  return seek === asked && !asked.stopping;
}

async function poll() {
  const asked = seek;
  if (!asked) return;
  try {
    const answer = await api(`/api/seeks/${encodeURIComponent(asked.id)}`);
    if (!current(asked)) return; // stopped (or sought again) while the answer was on its way
    if (answer.game) {
      enter(answer);
      return;
    }
    if (answer.status === "cancelled" || answer.status === "expired") {
      stopWaiting(t(`pair.${answer.status}`));
      return;
    }
    if (status.textContent !== t("pair.looking")) status.textContent = t("pair.looking"); // said once, not each look
    waited.textContent = waitedText(answer.waited);
    if (answer.waited >= answer.offer_bot_after && botOffer.hidden) offerBot(true);
  } catch (failure) {
    if (!current(asked)) return;
    if (failure instanceof ApiError && failure.status === 404) {
      stopWaiting(t("pair.lost"));
      return;
    }
    if (failure instanceof ApiError && failure.status === 401) { // signed out elsewhere: the search ended with it
      stopWaiting(t("pair.failed", { error: failure.message }));
      return;
    }
    status.textContent = t("pair.poll_failed", { error: failure.message });
  }
  timer = setTimeout(poll, POLL_MS);
}

function startWaiting(value) {
  seek = value;
  offerBot(false);
  status.textContent = t("pair.looking");
  waited.textContent = waitedText(0);
  show("waiting");
  document.getElementById("pair-cancel").focus();
  poll();
}

/** Stop waiting on the server; the seek's answer (it may have been paired just before). A look already on
 * its way may hear of the stop first ("cancelled"): it is ignored, and this answer alone says what happened. */
async function cancelSeek() {
  clearTimeout(timer);
  seek.stopping = true;
  return api(`/api/seeks/${encodeURIComponent(seek.id)}`, { method: "DELETE" });
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  const low = ratingOf(form.elements.rating_min);
  const high = ratingOf(form.elements.rating_max);
  if ([low, high].some((value) => value !== null && !Number.isFinite(value))) {
    error.textContent = t("pair.rating_bad");
    return;
  }
  const body = { edition: form.elements.edition.value, pace: paceOf(form.elements.pace.value) };
  if (low !== null || high !== null) body.rating_range = { min: low, max: high };
  const button = document.getElementById("pair-button");
  button.disabled = true;
  try {
    const answer = await api("/api/seeks", { method: "POST", body });
    startWaiting({ id: answer.id, edition: body.edition, pace: body.pace });
  } catch (failure) {
    error.textContent = t("pair.failed", { error: failure.message });
  } finally {
    button.disabled = false;
  }
});

document.getElementById("pair-cancel").addEventListener("click", async () => {
  try {
    const answer = await cancelSeek();
    if (answer.game) enter(answer);
    else stopWaiting(t("pair.stopped"));
  } catch (failure) {
    stopWaiting(t("pair.failed", { error: failure.message }));
  }
});

document.getElementById("pair-bot-play").addEventListener("click", async () => {
  const { edition, pace } = seek;
  try {
    const answer = await cancelSeek();
    if (answer.game) {
      enter(answer); // paired after all
      return;
    }
    const seats = [{ kind: SeatKind.HUMAN }, { kind: SeatKind.BOT, bot: botSelect.value }];
    const game = await api("/api/games", { method: "POST", body: { edition, name: session.name, seats, pace } });
    seek = null;
    remembered.setSeat(game.id, game.token, { seat: game.seat, edition });
    location.href = game.url;
  } catch (failure) {
    stopWaiting(t("pair.failed", { error: failure.message }));
  }
});

// Leaving the page (closing the tab, reloading) stops waiting, so nobody is paired with an empty chair.
window.addEventListener("pagehide", () => {
  if (seek && session) {
    fetch(`/api/seeks/${encodeURIComponent(seek.id)}`,
      { method: "DELETE", keepalive: true, headers: { "X-CSRF-Token": session.csrf } }).catch(() => {});
  }
});

/** Beside the range: the scale ratings are on, as the server's rating model has it. */
async function showScale() {
  try {
    const scale = await api("/api/rating-scale");
    document.getElementById("pair-scale").textContent = t("pair.scale", { start: scale.start, low: scale.low, high: scale.high });
  } catch {
    // the server is away: the range still works, only without its scale beside it
  }
}

/** Wire the panel once the lobby knows the editions (`{id: name}`, `chosen` first) and the bot levels. */
export async function startPairing(editions, chosen, levels) {
  form.elements.edition.replaceChildren(...Object.entries(editions).map(([id, name]) =>
    el("option", { value: id, selected: id === chosen }, name)));
  botSelect.replaceChildren(...levels.map((level) => el("option", { value: level.name, selected: level.name === "normal" },
    level.rating === null || level.rating === undefined ? t("lobby.seat_level", { level: levelWord(level.name) })
      : t("lobby.seat_level_rated", { level: levelWord(level.name), rating: decimal(level.rating) }))));
  session = await signedIn(); // null: nobody signed in (or the server is away): the panel says how to sign in
  showScale();
  panel.hidden = false;
  show(session ? "form" : "signed-out");
}

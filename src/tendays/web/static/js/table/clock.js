// The clock: the time left for the turn being played, counting down every quarter second, and each
// seat's bank, which counts down too once the seat to move has used its time for the move. The deadline
// comes from the server (a moment, not a count), so reloading changes nothing.

import { el } from "../shared/dom.js";
import { clockText, paceText } from "../shared/format.js";
import { t } from "../shared/i18n.js";
import { MatchStatus, PaceKind } from "../shared/protocol.js";
import { panel } from "./panel.js";
import { people } from "./tiles.js";

const TICK_MS = 250;
const HURRY_S = 10;

let shown = null; // {deadline, offset, node} of the clock being counted down

function tick() {
  if (!shown || !shown.node.isConnected) return;
  const left = shown.deadline - (Date.now() + shown.offset) / 1000;
  const text = clockText(left);
  if (shown.node.textContent !== text) shown.node.textContent = text;
  shown.node.classList.toggle("hurry", left <= HURRY_S);
  // The bank of the seat to move: what is left of it once the move's own time is spent (timing.py).
  for (const bank of document.querySelectorAll(".bank[data-bank]")) {
    const words = t("clock.bank", { time: clockText(Math.min(Number(bank.dataset.bank), Math.max(0, left))) });
    if (bank.textContent !== words) bank.textContent = words;
  }
}

/** The clock in the top bar: whose turn it is and how long it has left, or the game's pace. */
export function clockPanel() {
  setInterval(tick, TICK_MS);
  return panel((state) => ({
    clock: state.game.clock,
    status: state.game.status,
    current: state.game.current,
    seats: state.game.seats,
    you: state.game.you,
    offset: state.clockOffset,
  }), ({ clock, status, current, seats, you, offset }) => {
    const holder = document.getElementById("clock");
    holder.hidden = !clock;
    shown = null;
    if (!clock) return;
    holder.title = t("clock.title", { pace: paceText(clock) });
    if (status !== MatchStatus.PLAYING || !clock.deadline) {
      holder.replaceChildren(t("clock.pace", { pace: paceText(clock) }));
      return;
    }
    const names = people(seats, you);
    const time = document.createElement("strong");
    time.className = "clock-time";
    time.dataset.deadline = String(clock.deadline);
    holder.replaceChildren(`${t("clock.clock")} `, time,
      ` ${names.isMe(current) ? t("clock.for_you") : t("clock.for", { name: names.name(current) })}`);
    shown = { deadline: clock.deadline, offset, node: time };
    tick();
  });
}

/** What a seat's clock says in the players' list: its bank (live games). */
export function bankText(clock, seat) {
  if (!clock || clock.kind !== PaceKind.LIVE || !clock.banks) return "";
  return t("clock.bank", { time: clockText(clock.banks[seat] ?? clock.bank) });
}

/** A seat's bank for the players' list, or null; the seat to move gets the bank that the clock counts down. */
export function bankNode(clock, seat, current) {
  const text = bankText(clock, seat);
  if (!text) return null;
  const running = seat === current && clock.deadline;
  return el("span", { class: "bank", "data-bank": running ? String(clock.banks[seat] ?? clock.bank) : null }, text);
}

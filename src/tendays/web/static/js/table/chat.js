// Table talk: the lines of the seated players and the table's notices (a turn played on the clock, a
// player leaving), a box to write in, quick phrases for phones, and a mute button per player. Every line
// is shown as text, never as HTML. Spectators read only.

import { el } from "../shared/dom.js";
import { t, tn } from "../shared/i18n.js";
import { ChatKind, SeatKind } from "../shared/protocol.js";
import { api } from "../shared/rest.js";
import { panel } from "./panel.js";
import { isSpectator } from "./state.js";
import { people } from "./tiles.js";

const $ = (id) => document.getElementById(id);
const SHOWN = 200;

function timeOf(line) {
  const when = new Date(line.at * 1000);
  return Number.isNaN(when.getTime()) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

export function chatPanel(actions) {
  return panel((state) => ({
    chat: state.game.chat || [],
    seats: state.game.seats,
    you: state.game.you,
    muted: state.muted,
    spectator: isSpectator(state.game),
  }), ({ chat, seats, you, muted, spectator }) => {
    const names = people(seats, you);
    const list = $("chat");
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    const hidden = chat.filter((line) => line.seat !== null && muted.includes(line.seat)).length;
    const lines = chat.filter((line) => line.seat === null || !muted.includes(line.seat)).slice(-SHOWN);
    list.replaceChildren(...lines.map((line) => (line.kind === ChatKind.NOTICE
      ? el("li", { class: "chat-line chat-notice", "data-n": line.n }, el("span", { class: "muted small" }, timeOf(line)),
        " ", line.text)
      : el("li", { class: `chat-line${names.isMe(line.seat) ? " mine" : ""}`, "data-n": line.n, "data-seat": line.seat },
        el("span", { class: "muted small" }, timeOf(line)), " ",
        el("strong", {}, names.isMe(line.seat) ? t("lobby.you") : line.name || names.name(line.seat)),
        names.isMe(line.seat) ? null : names.mark(line.seat), ": ",
        // a line of someone the reader blocked comes as the server's words saying so
        el("span", { class: line.hidden ? "chat-text muted" : "chat-text" }, line.text)))));
    if (!lines.length) list.append(el("li", { class: "muted small" }, t("chat.none")));
    if (atBottom || list.dataset.filled !== "1") list.scrollTop = list.scrollHeight;
    list.dataset.filled = "1";
    $("chat-hidden").textContent = hidden ? tn("chat.hidden", hidden) : "";
    $("chat-form").hidden = spectator;
    $("chat-phrases").hidden = spectator; // a spectator may not write, so no phrase to tap either
    $("chat-spectator").hidden = !spectator;
    const others = seats.filter((seat) => seat.kind === SeatKind.HUMAN && seat.name && !names.isMe(seat.seat));
    $("chat-mutes").replaceChildren(...others.map((seat) => {
      const on = muted.includes(seat.seat);
      return el("button", { type: "button", class: "quiet small", "aria-pressed": String(on), "data-mute": seat.seat,
        onclick: () => actions.toggleMute(seat.seat) }, t(on ? "chat.unmute" : "chat.mute", { name: names.name(seat.seat) }));
    }));
  });
}

/** The writing box and the quick phrases (from the server). */
export function installChat(actions) {
  const input = $("chat-input");
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text && actions.say(text)) input.value = "";
  });
  api("/api/bots").then((answer) => {
    $("chat-phrases").replaceChildren(...(answer.phrases || []).map((phrase) => {
      // The server's phrases are English; a catalogue may say them in the reader's language.
      const said = t(`phrase.${phrase}`) === `phrase.${phrase}` ? phrase : t(`phrase.${phrase}`);
      return el("button", { type: "button", class: "quiet small phrase", onclick: () => actions.say(said) }, said);
    }));
  }, () => {}); // without the phrases, typing still works
}

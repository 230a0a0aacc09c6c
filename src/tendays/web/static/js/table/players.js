// The players: who is online, whose turn it is, their last actions, and (with open hands) their racks.

import { el } from "../shared/dom.js";
import { levelWord, t } from "../shared/i18n.js";
import { MatchStatus, SeatKind } from "../shared/protocol.js";
import { bankNode } from "./clock.js";
import { panel } from "./panel.js";
import { isOver } from "./state.js";
import { miniRack, people } from "./tiles.js";

const RECENT = ["take", "discard", "replace", "swap", "draw"];

/** A seat's last three actions, in the log's words without the player's name. */
function recentActions(log, seat) {
  return log.filter((entry) => entry.player === seat && RECENT.includes(entry.kind)).slice(-3);
}

function withoutName(entry, name) {
  const text = entry.text || entry.kind;
  return text.startsWith(`${name} `) ? text.slice(name.length + 1) : text;
}

export function playersPanel() {
  return panel((state) => {
    const game = state.game;
    const log = game.log || [];
    return {
      edition: state.edition,
      seats: game.seats,
      you: game.you,
      current: game.status === MatchStatus.PLAYING && game.phase !== "over" ? game.current : null,
      winner: game.winner,
      days: game.options.days,
      clock: game.clock ? { kind: game.clock.kind, banks: game.clock.banks, bank: game.clock.bank,
        deadline: game.clock.deadline } : null,
      // With open hands every rack is on the table; after the game they are shown in the end panel instead.
      racks: isOver(game) ? null : game.racks,
      recent: game.seats.map((seat) => recentActions(log, seat.seat)),
    };
  }, ({ edition, seats, you, current, winner, days, clock, racks, recent }) => {
    const names = people(seats, you);
    document.getElementById("players").replaceChildren(...seats.map((seat) => {
      const me = names.isMe(seat.seat);
      const bits = [];
      if (seat.kind === SeatKind.BOT) bits.push(t("players.bot", { level: levelWord(seat.bot) }));
      else if (!seat.name) bits.push(t("lobby.free_seat"));
      else if (seat.left) bits.push(t("players.left"));
      else if (seat.away) bits.push(t("players.away"));
      else bits.push(seat.connected ? t("players.online") : t("players.offline"));
      const bank = seat.kind === SeatKind.HUMAN ? bankNode(clock, seat.seat, current) : null; // counts down (clock.js)
      const rack = racks && !me ? racks[seat.seat] : null;
      const classes = `player${current === seat.seat ? " current" : ""}${me ? " me" : ""}`;
      return el("li", { class: classes, "data-seat": seat.seat },
        el("div", { class: "player-head" },
          el("span", { class: `presence ${seat.kind === SeatKind.BOT ? "bot" : seat.connected ? "on" : "off"}`,
            "aria-hidden": "true" }),
          el("strong", {}, names.name(seat.seat)), names.mark(seat.seat),
          me ? el("span", { class: "you" }, t("players.you")) : null,
          el("span", { class: "muted small" }, bits.join(" · "), bank ? [" · ", bank] : null),
          current === seat.seat ? el("span", { class: "turn-mark" }, t("players.to_move")) : null,
          winner === seat.seat ? el("span", { class: "winner-mark" }, t("players.winner")) : null),
        el("div", { class: "small" }, t("players.filled", { n: seat.tiles ?? 0, days })),
        rack ? miniRack(edition, rack) : null,
        el("ul", { class: "actions-list small" },
          (recent[seat.seat] || []).map((entry) => el("li", {}, withoutName(entry, names.name(seat.seat))))));
    }));
  });
}

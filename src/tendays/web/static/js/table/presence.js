// The seat's own controls: leave the game, take the seat back from the bot, end a game someone left,
// and offer or accept a rematch once it is over.

import { el } from "../shared/dom.js";
import { list, t, tn } from "../shared/i18n.js";
import { ClientKind, MatchStatus, SeatKind } from "../shared/protocol.js";
import { panel } from "./panel.js";
import { isOver, isSpectator } from "./state.js";
import { people } from "./tiles.js";

export function presencePanel(actions) {
  return panel((state) => {
    const game = state.game;
    const mine = isSpectator(game) ? null : game.seats[game.you];
    return {
      mine, seats: game.seats, you: game.you, status: game.status, over: isOver(game), canEnd: Boolean(game.can_end),
      votes: game.end_votes || [], rematch: game.rematch, ended: game.ended, rated: Boolean(game.rated),
    };
  }, ({ mine, seats, you, status, over, canEnd, votes, rematch, rated }) => {
    const holder = document.getElementById("seat-actions");
    const names = people(seats, you);
    const parts = [];
    if (mine && !mine.left && over) {
      const offered = Boolean(rematch);
      parts.push(el("span", {}, offered ? `${t("seat.rematch_offered")} ` : ""),
        el("button", { type: "button", class: "primary", id: "rematch-button", onclick: () => actions.seat(ClientKind.REMATCH) },
          offered ? t("seat.join_rematch") : t("seat.rematch")));
    } else if (mine && mine.away && status === MatchStatus.PLAYING) {
      parts.push(el("span", {}, `${t("seat.away")} `),
        el("button", { type: "button", class: "primary", id: "back-button", onclick: () => actions.seat(ClientKind.BACK) },
          t("seat.back")));
    } else if (mine && !mine.left && status !== MatchStatus.OVER) {
      if (canEnd) {
        const gone = seats.filter((s) => s.kind === SeatKind.HUMAN && (s.left || s.away)).map((s) => names.name(s.seat));
        const asked = votes.includes(you);
        parts.push(el("span", {}, `${tn("seat.gone", gone.length, { names: list(gone) })} `),
          el("button", { type: "button", id: "end-button", disabled: asked, onclick: () => actions.seat(ClientKind.END) },
          asked ? t("seat.asked_end") : t("seat.end")), " ");
      }
      parts.push(el("button", { type: "button", class: "quiet", id: "leave-button", onclick: () => {
        if (window.confirm(rated ? t("seat.leave_confirm_rated") : t("seat.leave_confirm"))) {
          actions.seat(ClientKind.LEAVE);
        }
      } }, t("seat.leave")));
    }
    holder.hidden = !parts.length;
    holder.replaceChildren(...parts);
  });
}

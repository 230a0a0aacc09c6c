// The seat's own controls: leave the game, take the seat back from the bot, end a game someone left,
// and offer or accept a rematch once it is over.

import { el } from "../common.js";
import { panel } from "./panel.js";
import { isOver, isSpectator } from "./store.js";
import { people } from "./tiles.js";

export function presencePanel(actions) {
  return panel((state) => {
    const game = state.game;
    const mine = isSpectator(game) ? null : game.seats[game.you];
    return {
      mine, seats: game.seats, you: game.you, status: game.status, over: isOver(game), canEnd: Boolean(game.can_end),
      votes: game.end_votes || [], rematch: game.rematch, ended: game.ended,
    };
  }, ({ mine, seats, you, status, over, canEnd, votes, rematch }) => {
    const holder = document.getElementById("seat-actions");
    const names = people(seats, you);
    const parts = [];
    if (mine && !mine.left && over) {
      const offered = Boolean(rematch);
      parts.push(el("span", {}, offered ? "A rematch is offered: the same seats and options again. " : ""),
        el("button", { type: "button", class: "primary", id: "rematch-button", onclick: () => actions.seat("rematch") },
          offered ? "Join the rematch" : "Rematch"));
    } else if (mine && mine.away && status === "playing") {
      parts.push(el("span", {}, "Your time ran out too often, so a bot plays your seat. "),
        el("button", { type: "button", class: "primary", id: "back-button", onclick: () => actions.seat("back") },
          "Take my seat back"));
    } else if (mine && !mine.left && status !== "over") {
      if (canEnd) {
        const gone = seats.filter((s) => s.kind === "human" && (s.left || s.away)).map((s) => names.name(s.seat));
        const asked = votes.includes(you);
        parts.push(el("span", {}, `${gone.join(" and ")} ${gone.length === 1 ? "is" : "are"} gone; a bot plays `
          + `${gone.length === 1 ? "that seat" : "those seats"}. Play on, or `),
        el("button", { type: "button", id: "end-button", disabled: asked, onclick: () => actions.seat("end") },
          asked ? "You asked to end the game" : "End the game"), " ");
      }
      parts.push(el("button", { type: "button", class: "quiet", id: "leave-button", onclick: () => {
        if (window.confirm("Leave this game? A bot will play your seat, and you cannot come back to it.")) {
          actions.seat("leave");
        }
      } }, "Leave the game"));
    }
    holder.hidden = !parts.length;
    holder.replaceChildren(...parts);
  });
}

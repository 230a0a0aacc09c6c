// Every rack at the position shown, with its verdict; the mover's rack marked, and a button that puts a rack's
// journey on the map.

import { el } from "../shared/dom.js";
import { t, tn } from "../shared/i18n.js";
import { panel } from "../table/panel.js";
import { miniRack, people } from "../table/tiles.js";

export function racksPanel(onShow) {
  return panel((state) => ({ edition: state.edition, game: state.game, mapSeat: state.mapSeat, last: state.last }),
    ({ edition, game, mapSeat, last }) => {
      const names = people(game.seats, null);
      const mover = game.move ? game.move.seat : null;
      if (!game.racks) { // a game ended early: each rack's size, as its table showed it
        document.getElementById("replay-racks").replaceChildren(...game.rack_counts.map((count, seat) => el("div",
          { class: `end-rack${mover === seat ? " mover" : ""}`, "data-seat": seat },
          el("div", { class: "player-head" }, el("strong", {}, names.name(seat)), names.mark(seat),
            mover === seat ? el("span", { class: "small" }, t("replay.moved")) : null,
            el("span", { class: "small" }, t("players.filled", { n: count, days: game.options.days }))))));
        return;
      }
      document.getElementById("replay-racks").replaceChildren(...game.racks.map((rack, seat) => {
        const journey = game.journeys[seat];
        const problems = journey.problems || [];
        const filled = rack.filter((tile) => tile !== null && tile !== undefined).length;
        const shown = mapSeat === seat;
        const won = last && game.winner === seat;
        return el("div", { class: `end-rack${won ? " winner" : ""}${mover === seat ? " mover" : ""}`,
          "data-seat": seat },
        el("div", { class: "player-head" }, el("strong", {}, names.name(seat)), names.mark(seat),
          won ? el("span", { class: "winner-mark" }, t("players.winner")) : null,
          mover === seat ? el("span", { class: "small" }, t("replay.moved")) : null,
          filled < rack.length // a rack still being filled (the deal, the draft) is not judged yet
            ? el("span", { class: "small" }, t("players.filled", { n: filled, days: rack.length }))
            : el("span", { class: `small ${journey.valid ? "good" : "bad"}` },
              journey.valid ? t("end.complete") : tn("rack.problems", problems.length)),
          el("button", { type: "button", class: "quiet", "aria-pressed": String(shown), onclick: () => onShow(seat) },
            shown ? t("end.on_map") : t("end.show_on_map"))),
        miniRack(edition, rack));
      }));
    });
}

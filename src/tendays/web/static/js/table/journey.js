// The map with a journey drawn on it, and the end of the game: every rack revealed with its verdict.

import { el } from "../shared/dom.js";
import { t, tn } from "../shared/i18n.js";
import { MapView } from "../shared/map.js";
import { panel } from "./panel.js";
import { isOver, mapSeatOf } from "./state.js";
import { miniRack, people, problemText } from "./tiles.js";

const $ = (id) => document.getElementById(id);

/** The map's legend: every region's code on the map, its shape and colour, and its name. */
function legend(edition, geometry) {
  const ids = Object.keys(geometry.regions).sort((a, b) => edition.name(a).localeCompare(edition.name(b)));
  return [el("summary", {}, t("map.legend", { regions: edition.regionNounPlural })),
    el("ul", {}, ids.map((id) => el("li", {}, el("abbr", { class: "legend-code" }, id), " ", edition.shape(id, 11),
      " ", edition.describe(id))))];
}

/** The map panel: drawn anew for a new edition; the journey on it follows the game. */
export function mapPanel() {
  let edition = null;
  let map = null;
  const journey = panel((state) => {
    const game = state.game;
    // During the game the map shows one's own journey; after it, any seat's (the winner's first).
    const seat = isOver(game) && game.racks ? mapSeatOf(state) : game.you;
    const names = people(game.seats, game.you);
    const known = seat !== null && seat !== undefined;
    return {
      rack: !known ? null : game.racks ? game.racks[seat] : names.isMe(seat) ? game.rack : null,
      journey: !known ? null : game.journeys ? game.journeys[seat] : names.isMe(seat) ? game.journey : null,
      label: !known ? "" : names.isMe(seat) ? t("map.your_journey") : t("map.journey_of", { name: names.name(seat) }),
      highlight: state.hint ? state.hint.days : [],
      map,
    };
  }, ({ rack, journey: verdict, label, highlight, map: view }) => {
    view.showJourney(rack, verdict, { highlight, label });
    $("map-caption").textContent = rack && rack.some((tile) => tile !== null) ? t("map.showing", { label }) : "";
  });
  return (state) => {
    if (state.edition !== edition) {
      edition = state.edition;
      const geometry = state.geometry;
      map = new MapView($("map"), edition, geometry, (text) => { $("map-explain").textContent = text; });
      $("map-explain").textContent = "";
      $("map-legend").replaceChildren(...legend(edition, geometry));
      $("credit").replaceChildren(geometry.credit_url
        ? el("a", { href: geometry.credit_url, rel: "noopener", target: "_blank" }, geometry.credit)
        : geometry.credit);
    }
    journey(state);
  };
}

/** The end panel; `actions.showOnMap` puts a seat's journey on the map. */
export function endPanel(actions) {
  return panel((state) => {
    const game = state.game;
    const shown = isOver(game) && game.racks;
    return shown ? {
      edition: state.edition, racks: game.racks, journeys: game.journeys, winner: game.winner, seats: game.seats,
      you: game.you, mapSeat: mapSeatOf(state),
    } : null;
  }, (end) => {
    $("end").hidden = !end;
    if (!end) return;
    const names = people(end.seats, end.you);
    $("end-title").textContent = end.winner === null || end.winner === undefined ? t("end.nobody")
      : names.isMe(end.winner) ? t("end.you_win") : t("end.wins", { name: names.name(end.winner) });
    $("end-racks").replaceChildren(...end.racks.map((rack, seat) => {
      const journey = end.journeys ? end.journeys[seat] : null;
      const problems = journey ? journey.problems || [] : [];
      const count = tn("rack.problems", problems.length);
      const shown = end.mapSeat === seat;
      // A seat of one's own without a name (the guided game's learner) is simply "You", not "Player 1".
      const unnamedMe = names.isMe(seat) && !end.seats[seat].name;
      return el("div", { class: `end-rack${end.winner === seat ? " winner" : ""}`, "data-seat": seat },
        el("div", { class: "player-head" }, el("strong", {}, unnamedMe ? t("end.you") : names.name(seat)),
          names.isMe(seat) && !unnamedMe ? el("span", { class: "you" }, t("players.you")) : null,
          end.winner === seat ? el("span", { class: "winner-mark" }, t("players.winner")) : null,
          el("span", { class: `small ${journey && journey.valid ? "good" : "bad"}` },
            journey ? (journey.valid ? t("end.complete") : count) : ""),
          el("button", { type: "button", class: "quiet", "aria-pressed": String(shown),
            onclick: () => actions.showOnMap(seat) }, shown ? t("end.on_map") : t("end.show_on_map"))),
        miniRack(end.edition, rack),
        problems.length ? el("details", {}, el("summary", { class: "small" }, t("end.why")),
          el("ul", { class: "problems" }, problems.map((p) => el("li", { class: "problem" }, problemText(p))))) : null);
    }));
  });
}

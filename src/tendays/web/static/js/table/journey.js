// The map with a journey drawn on it, and the end of the game: every rack revealed with its verdict.

import { el } from "../common.js";
import { MapView } from "../map.js";
import { panel } from "./panel.js";
import { isOver, mapSeatOf } from "./store.js";
import { miniRack, people, problemText } from "./tiles.js";

const $ = (id) => document.getElementById(id);

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
      label: !known ? "" : names.isMe(seat) ? "your journey" : `${names.name(seat)}’s journey`,
      highlight: state.hint ? state.hint.days : [],
      map,
    };
  }, ({ rack, journey: verdict, label, highlight, map: view }) => {
    view.showJourney(rack, verdict, { highlight, label });
    $("map-caption").textContent = rack && rack.some((t) => t !== null) ? `showing ${label}` : "";
  });
  return (state) => {
    if (state.edition !== edition) {
      edition = state.edition;
      const geometry = state.geometry;
      map = new MapView($("map"), edition, geometry);
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
    $("end-title").textContent = end.winner === null || end.winner === undefined ? "The end: nobody won"
      : `The end: ${names.name(end.winner)} wins`;
    $("end-racks").replaceChildren(...end.racks.map((rack, seat) => {
      const journey = end.journeys ? end.journeys[seat] : null;
      const problems = journey ? journey.problems || [] : [];
      const count = `${problems.length} problem${problems.length === 1 ? "" : "s"}`;
      const shown = end.mapSeat === seat;
      return el("div", { class: `end-rack${end.winner === seat ? " winner" : ""}`, "data-seat": seat },
        el("div", { class: "player-head" }, el("strong", {}, names.name(seat)),
          names.isMe(seat) ? el("span", { class: "you" }, "you") : null,
          end.winner === seat ? el("span", { class: "winner-mark" }, "winner") : null,
          el("span", { class: `small ${journey && journey.valid ? "good" : "bad"}` },
            journey ? (journey.valid ? "✓ complete journey" : count) : ""),
          el("button", { type: "button", class: "quiet", "aria-pressed": String(shown),
            onclick: () => actions.showOnMap(seat) }, shown ? "On the map" : "Show on the map")),
        miniRack(end.edition, rack),
        problems.length ? el("details", {}, el("summary", { class: "small" }, "Why not complete"),
          el("ul", { class: "problems" }, problems.map((p) => el("li", { class: "problem" }, problemText(p))))) : null);
    }));
  });
}

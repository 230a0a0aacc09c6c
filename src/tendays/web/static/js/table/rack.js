// The player's rack, day by day, with the verdict on each step and the journey's problems.

import { el } from "../shared/dom.js";
import { sentence } from "../shared/format.js";
import { t, tn } from "../shared/i18n.js";
import { MatchStatus } from "../shared/protocol.js";
import { legalOf, swapMove } from "./legal.js";
import { panel } from "./panel.js";
import { isOver, isSpectator, movesOf } from "./state.js";
import { problemText, stepStatus, tileCard } from "./tiles.js";

const $ = (id) => document.getElementById(id);

/** What a click on a day does: draft onto it, choose it to replace, or choose the days of a swap. */
function clickDay(store, actions, day) {
  const state = store.state;
  const legal = legalOf(movesOf(state));
  const selected = state.selectedDay;
  if (legal.draft.has(day)) {
    actions.move(legal.draft.get(day));
  } else if (state.game.phase === "place" && legal.replace.has(day)) {
    actions.select(selected === day ? null : day);
    if (store.state.selectedDay !== null) focusPileAction();
  } else if (state.game.phase === "draw" && legal.swap.size) {
    const swap = selected !== null && selected !== day ? swapMove(legal, selected, day) : null;
    if (swap) {
      actions.select(null);
      actions.move(swap);
    } else if (selected === null || selected === day) {
      actions.select(selected === day ? null : day);
    }
  }
}

function focusPileAction() {
  // Keyboard players continue at the first pile they may discard onto.
  const button = document.querySelector("#piles .discard-pile button:not([disabled])");
  const from = document.activeElement;
  if (button && from && from.matches("button.day:focus-visible")) button.focus();
}

function summarize(rack, journey, status) {
  const summary = $("journey-summary");
  // An empty day is no news while the racks are still being filled.
  const list = (journey ? journey.problems || [] : [])
    .filter((p) => !(p.to_day === null || p.to_day === undefined) || rack[p.day - 1] !== null);
  const placed = rack.filter((t) => t !== null).length;
  if (status === MatchStatus.WAITING || placed < rack.length) {
    summary.className = "small muted";
    summary.textContent = t("players.filled", { n: placed, days: rack.length });
  } else if (journey && journey.valid) {
    summary.className = "small good";
    summary.textContent = t("rack.complete");
  } else if (journey) {
    summary.className = "small bad";
    summary.textContent = tn("rack.problems", list.length);
  } else {
    summary.textContent = "";
  }
  $("problems").replaceChildren(...list.map((p) => el("li", { class: "problem" }, "✗ ", problemText(p))));
}

function connector(journey, day, days) {
  if (day >= days) return null;
  const step = stepStatus(journey, day);
  return el("span", {
    class: `step ${step ? (step.ok ? "ok" : "broken") : "unknown"}`,
    title: step ? sentence(step.message) : t("rack.unchecked"), // on its own, so a sentence
    "aria-label": t(!step ? "rack.step_unchecked" : step.ok ? "rack.step_ok" : "rack.step_broken",
      { day, to: day + 1, why: step ? step.message : "" }),
    role: "img",
  }, step ? (step.ok ? "✓" : "✗") : "·");
}

/** The rack panel; `store` is read when a day is clicked, `drag.makeDraggable` lets days be dragged. */
export function rackPanel(store, actions, drag) {
  let shownRack = null; // the rack of the last drawing, to let a changed day flash once
  return panel((state) => {
    const game = state.game;
    return {
      edition: state.edition,
      spectator: isSpectator(game),
      over: isOver(game),
      openHands: Boolean(game.racks),
      status: game.status,
      rack: game.rack,
      inHand: game.in_hand,
      journey: game.journey,
      hinted: state.hint ? state.hint.days : [],
      selectedDay: state.selectedDay,
      moves: movesOf(state),
    };
  }, ({ edition, ...p }) => {
    const rackNode = $("rack");
    $("rack-title").textContent = p.spectator ? t("rack.journeys") : t("rack.yours");
    if (!p.rack) {
      rackNode.replaceChildren(el("li", { class: "muted spectator-note" }, !p.spectator ? t("rack.appears")
        : p.over ? (p.openHands ? t("rack.revealed") : t("rack.stay_hidden"))
          : p.openHands ? t("rack.open_hands") : t("rack.spectator")));
      $("problems").replaceChildren();
      $("journey-summary").textContent = "";
      return;
    }
    const legal = legalOf(p.moves);
    const hinted = new Set(p.hinted);
    const previous = shownRack;
    shownRack = p.rack;
    rackNode.replaceChildren(...p.rack.map((tileId, i) => {
      const day = i + 1;
      const changed = previous && previous.length === p.rack.length && previous[i] !== tileId;
      const draft = legal.draft.get(day) ?? null;
      const replaceable = legal.replace.has(day);
      const swappable = legal.swapDays.has(day);
      const selected = p.selectedDay === day;
      const clickable = Boolean(draft) || replaceable || swappable;
      // The button's name is what it shows (day, tile, colour), then what pressing it does, for screen readers.
      const hand = edition.name(p.inHand);
      const does = draft ? t("rack.put_here", { tile: hand })
        : replaceable ? (selected ? t("rack.selected_pile") : t("rack.replace_with", { tile: hand }))
          : swappable ? (selected ? t("rack.selected_swap") : t("rack.swap")) : "";
      const card = el("button", {
        type: "button",
        class: `day${selected ? " selected" : ""}${hinted.has(day) ? " hinted" : ""}${clickable ? " active" : ""}`
          + (changed ? " changed" : ""),
        "data-day": day,
        "data-drop-day": day,
        "data-move": draft,
        "aria-pressed": replaceable || swappable ? String(selected) : null,
        "aria-keyshortcuts": day <= 10 ? String(day % 10) : null,
        disabled: !clickable,
        onclick: () => clickDay(store, actions, day),
      }, el("span", { class: "day-no" }, t("rack.day", { day })), tileCard(edition, tileId),
      does ? el("span", { class: "visually-hidden" }, `. ${does}`) : null);
      if (tileId !== null && (swappable || replaceable)) {
        drag.makeDraggable(card, { from: "day", day }, { touch: false });
      }
      return el("li", { class: "rack-item" }, card, connector(p.journey, day, p.rack.length));
    }));
    summarize(p.rack, p.journey, p.status);
  });
}

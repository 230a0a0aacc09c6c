// The player's rack, day by day, with the verdict on each step and the journey's problems.

import { el } from "../common.js";
import { legalOf, swapMove } from "./legal.js";
import { panel } from "./panel.js";
import { isOver, isSpectator, movesOf } from "./store.js";
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
  if (status === "waiting" || placed < rack.length) {
    summary.className = "small muted";
    summary.textContent = `${placed} of ${rack.length} days filled`;
  } else if (journey && journey.valid) {
    summary.className = "small good";
    summary.textContent = "✓ a complete journey";
  } else if (journey) {
    summary.className = "small bad";
    summary.textContent = `${list.length} problem${list.length === 1 ? "" : "s"}`;
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
    title: step ? step.message : "not checked yet",
    "aria-label": step ? `Day ${day} to ${day + 1}: ${step.ok ? "" : "broken: "}${step.message}`
      : `Day ${day} to ${day + 1}: not checked yet`,
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
    $("rack-title").textContent = p.spectator ? "Journeys" : "Your journey";
    if (!p.rack) {
      rackNode.replaceChildren(el("li", { class: "muted" }, !p.spectator ? "Your rack appears when the game starts."
        : p.over ? "Every rack is revealed below." : p.openHands ? "Open hands: every rack is shown under Players."
          : "Spectators see no racks until the game ends."));
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
      const replaceLabel = selected ? ". Selected: choose a discard pile" : `. Replace with ${edition.name(p.inHand)}`;
      let label = `Day ${day}: ${edition.describe(tileId)}`;
      if (draft) label += `. Put ${edition.name(p.inHand)} here`;
      else if (replaceable) label += replaceLabel;
      else if (swappable) label += selected ? ". Selected for a swap" : ". Swap";
      const card = el("button", {
        type: "button",
        class: `day${selected ? " selected" : ""}${hinted.has(day) ? " hinted" : ""}${clickable ? " active" : ""}`
          + (changed ? " changed" : ""),
        "data-day": day,
        "data-drop-day": day,
        "data-move": draft,
        "aria-pressed": replaceable || swappable ? String(selected) : null,
        "aria-label": label,
        disabled: !clickable,
        onclick: () => clickDay(store, actions, day),
      }, el("span", { class: "day-no" }, `Day ${day}`), tileCard(edition, tileId));
      if (tileId !== null && (swappable || replaceable)) {
        drag.makeDraggable(card, { from: "day", day }, { touch: false });
      }
      return el("li", { class: "rack-item" }, card, connector(p.journey, day, p.rack.length));
    }));
    summarize(p.rack, p.journey, p.status);
  });
}

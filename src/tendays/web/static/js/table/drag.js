// Drag and drop with pointer events (mouse, pen and touch alike). A press that does not move is a click.
// What a drop does is looked up in the server's legal moves, as a click's is.

import { legalOf, replaceMove, swapMove } from "./legal.js";
import { movesOf } from "./state.js";

const TARGETS = "[data-drop-day], [data-drop-pile]";
const THRESHOLD_PX = 6;

/**
 * What dropping `payload` ({from: "hand"} | {from: "pile", pile} | {from: "day", day}) on `target` would do:
 * {move, selectAfter?} to send a move, {select} to choose a day, or null.
 */
export function dropAction(legal, payload, target) {
  if (!target) return null;
  const day = target.dataset.dropDay ? Number(target.dataset.dropDay) : null;
  const pile = target.dataset.dropPile ? Number(target.dataset.dropPile) : null;
  if (payload.from === "hand" && day !== null) {
    if (legal.draft.has(day)) return { move: legal.draft.get(day) };
    const piles = legal.replace.get(day);
    // With one pile to discard onto there is nothing to choose: the tile goes there at once.
    if (piles) return piles.size === 1 ? { move: [...piles.values()][0] } : { select: day };
  }
  if (payload.from === "hand" && pile !== null && legal.discard.has(pile)) return { move: legal.discard.get(pile) };
  if (payload.from === "pile" && day !== null && legal.take.has(payload.pile)) {
    return { move: legal.take.get(payload.pile), selectAfter: day };
  }
  if (payload.from === "day" && day !== null && day !== payload.day) {
    const swap = swapMove(legal, payload.day, day);
    if (swap) return { move: swap };
  }
  if (payload.from === "day" && pile !== null) {
    const replace = replaceMove(legal, payload.day, pile);
    if (replace) return { move: replace };
  }
  return null;
}

function targetAt(x, y) {
  const hit = document.elementFromPoint(x, y);
  return hit ? hit.closest(TARGETS) : null;
}

/** Install the drag handlers on the page; returns {makeDraggable} for the panels. */
export function installDrag(store, actions) {
  let drag = null; // {payload, node, x, y, ghost, offset, pointer} while a press lasts
  let swallowClick = false;
  const legalNow = () => legalOf(movesOf(store.state));

  window.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < THRESHOLD_PX) return;
      const rect = drag.node.getBoundingClientRect();
      drag.ghost = drag.node.cloneNode(true);
      drag.ghost.classList.add("ghost");
      drag.ghost.style.width = `${rect.width}px`;
      drag.offset = { x: drag.x - rect.left, y: drag.y - rect.top };
      document.getElementById("drag-layer").append(drag.ghost);
      document.body.classList.add("dragging");
      const legal = legalNow();
      for (const target of document.querySelectorAll(TARGETS)) {
        if (dropAction(legal, drag.payload, target)) target.classList.add("drop-ok");
      }
    }
    event.preventDefault();
    drag.ghost.style.transform = `translate(${event.clientX - drag.offset.x}px, ${event.clientY - drag.offset.y}px)`;
    for (const node of document.querySelectorAll(".drop-over")) node.classList.remove("drop-over");
    const target = targetAt(event.clientX, event.clientY);
    if (target && target.classList.contains("drop-ok")) target.classList.add("drop-over");
  }, { passive: false });

  function endDrag(event, cancelled) {
    if (!drag || event.pointerId !== drag.pointer) return;
    const current = drag;
    drag = null;
    if (!current.ghost) return; // it was a click
    current.ghost.remove();
    document.body.classList.remove("dragging");
    for (const node of document.querySelectorAll(".drop-ok, .drop-over")) node.classList.remove("drop-ok", "drop-over");
    swallowClick = true;
    setTimeout(() => { swallowClick = false; }, 0);
    if (cancelled) return;
    const action = dropAction(legalNow(), current.payload, targetAt(event.clientX, event.clientY));
    if (!action) return;
    if (action.select) actions.select(action.select);
    else actions.move(action.move, { selectAfter: action.selectAfter ?? null });
  }

  window.addEventListener("pointerup", (event) => endDrag(event, false));
  window.addEventListener("pointercancel", (event) => endDrag(event, true));
  window.addEventListener("click", (event) => {
    if (swallowClick) {
      event.stopPropagation();
      event.preventDefault();
    }
  }, true);

  return {
    /**
     * Let `node` be dragged. Days are dragged only with a mouse or pen (`touch: false`): on a touch screen
     * the rack is a large area that must still scroll, and tapping a day does the same thing.
     */
    makeDraggable(node, payload, { touch = true } = {}) {
      node.classList.add("draggable");
      if (touch) node.classList.add("touch-drag");
      node.addEventListener("pointerdown", (event) => {
        if (event.button !== 0 || store.state.busy || (!touch && event.pointerType === "touch")) return;
        drag = { payload, node, x: event.clientX, y: event.clientY, ghost: null, pointer: event.pointerId };
      });
    },
  };
}

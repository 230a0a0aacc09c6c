// The tile in hand, the draw pile and the three discard piles, with the moves they offer.

import { el } from "../shared/dom.js";
import { t, tn } from "../shared/i18n.js";
import { PILE_KEYS, legalOf, replaceMove } from "./legal.js";
import { panel } from "./panel.js";
import { isSpectator, movesOf } from "./state.js";
import { people, tileCard } from "./tiles.js";

function top(pile) {
  return pile.length ? pile[pile.length - 1] : null;
}

/** What a discard pile's button does in this phase: take its tile, or discard onto it. */
function pileAction(edition, p, legal, number, tileOnTop, move) {
  if (p.phase === "draw") {
    const text = legal.take.get(number) ?? null;
    return el("button", {
      type: "button", class: "pile-action", disabled: !text, "data-move": text,
      onclick: () => move(text),
      "aria-label": `${t("piles.take")}: ${tileOnTop ? t("piles.take_label", { tile: edition.name(tileOnTop), pile: number })
        : t("piles.empty_label", { pile: number })}`,
      "aria-keyshortcuts": PILE_KEYS[number - 1],
    }, t("piles.take"));
  }
  if (p.phase !== "place" || !legal.any) return null;
  const forced = t("piles.forced", { pile: p.forcedPile });
  if (p.selectedDay !== null) {
    const text = replaceMove(legal, p.selectedDay, number);
    const old = edition.name(p.selectedTile);
    return el("button", {
      type: "button", class: "pile-action primary", disabled: !text, "data-move": text,
      onclick: () => move(text),
      title: text ? t("piles.goes_onto", { tile: old, pile: number }) : forced,
      "aria-label": `${t("piles.discard")}: ${t("piles.replace_label",
        { tile: edition.name(p.inHand), day: p.selectedDay, old, pile: number })}`,
      "aria-keyshortcuts": PILE_KEYS[number - 1],
    }, t("piles.discard"));
  }
  const text = legal.discard.get(number) ?? null;
  return el("button", {
    type: "button", class: "pile-action", disabled: !text, "data-move": text,
    onclick: () => move(text), title: text ? null : forced,
    "aria-label": `${t("piles.discard")}: ${t("piles.discard_label", { tile: edition.name(p.inHand), pile: number })}`,
    "aria-keyshortcuts": PILE_KEYS[number - 1],
  }, t("piles.discard"));
}

/**
 * The piles panel. `actions.move` sends a move; `drag.makeDraggable` lets the tile in hand and the piles'
 * top tiles be dragged.
 */
export function pilesPanel(actions, drag) {
  let shownTops = null; // the top tiles of the last drawing, to let a changed one flash once
  const move = (text) => { if (text) actions.move(text); };
  return panel((state) => {
    const game = state.game;
    return {
      edition: state.edition,
      phase: game.phase,
      current: game.current,
      seats: game.seats,
      you: game.you,
      spectator: isSpectator(game),
      inHand: game.in_hand,
      drawPile: game.draw_pile,
      piles: game.piles,
      moves: movesOf(state),
      selectedDay: state.selectedDay,
      selectedTile: game.rack && state.selectedDay !== null ? game.rack[state.selectedDay - 1] : null,
      forcedPile: game.forced_pile || 0,
    };
  }, ({ edition, ...p }) => {
    const legal = legalOf(p.moves);
    const mine = legal.any;
    const children = [];
    // The tile in hand (the drafted or drawn tile), visible to its holder, or to all when taken from a pile.
    const holding = Boolean(p.inHand) && p.phase !== "over";
    const handCard = holding ? tileCard(edition, p.inHand)
      : el("span", { class: "tile big empty" }, el("span", { class: "tile-name" }, "—"));
    if (holding && mine) drag.makeDraggable(handCard, { from: "hand" });
    children.push(el("div", { class: `slot in-hand${holding ? " holding" : ""}` },
      el("span", { class: "slot-label" },
        holding && !mine ? t("piles.holds", { name: people(p.seats, p.you).name(p.current) })
          : p.spectator ? t("piles.in_hand_table") : t("piles.in_hand")),
      handCard));
    children.push(el("div", { class: "slot draw-pile" },
      el("span", { class: "slot-label" }, t("piles.draw_pile")),
      el("span", { class: "tile big back" }, el("span", { class: "tile-name" }, `${p.drawPile}`),
        el("span", { class: "tile-sub" }, tn("piles.tiles", p.drawPile))),
      el("button", {
        type: "button", class: "pile-action", disabled: !legal.draw, "data-move": legal.draw,
        onclick: () => move(legal.draw), "aria-label": `${t("piles.draw")}: ${tn("piles.draw_label", p.drawPile)}`,
        "aria-keyshortcuts": "d",
      }, t("piles.draw"))));
    // The three discard piles, top tile last.
    const previousTops = shownTops;
    shownTops = p.piles.map(top);
    p.piles.forEach((pile, i) => {
      const number = i + 1;
      const tileOnTop = top(pile);
      const changed = previousTops && previousTops[i] !== tileOnTop;
      const forced = mine && p.forcedPile === number;
      const extra = `${forced ? "must-discard" : ""}${changed ? " changed" : ""}`;
      const card = tileCard(edition, tileOnTop, { extra });
      if (tileOnTop && legal.take.has(number)) drag.makeDraggable(card, { from: "pile", pile: number });
      children.push(el("div", {
        class: `slot discard-pile${forced ? " forced" : ""}`, "data-drop-pile": number, "data-pile": number,
      },
      el("span", { class: "slot-label" }, t("piles.pile", { pile: number }),
        pile.length > 1 ? el("span", { class: "depth" }, ` +${pile.length - 1}`) : null),
      card, pileAction(edition, p, legal, number, tileOnTop, move)));
    });
    document.getElementById("piles").replaceChildren(...children);
  });
}

// "Your move": what the player may do now, in words, and the hint.

import { legalOf } from "./legal.js";
import { panel } from "./panel.js";
import { isSpectator, movesOf } from "./store.js";
import { people } from "./tiles.js";

const $ = (id) => document.getElementById(id);

function promptText(edition, p) {
  const names = people(p.seats, p.you);
  const legal = legalOf(p.moves);
  const hand = p.inHand;
  let text;
  if (p.status === "waiting") text = "The game has not started yet.";
  else if (p.phase === "over") text = "The game is over.";
  else if (!legal.any) {
    if (p.phase === "place" && hand) text = `${names.name(p.current)} holds ${edition.name(hand)}.`;
    else text = p.spectator ? "You are watching this game." : `Wait for ${names.name(p.current)}.`;
  } else if (p.phase === "draft") {
    text = `You drew ${edition.describe(hand)}. Put it on an empty day: click the day, or drag the tile there. `
      + "A placed tile never moves.";
  } else if (p.phase === "draw") {
    text = "Draw the top tile of the draw pile, or take the top tile of a discard pile "
      + "(click it, or drag it onto the day you want it on).";
    if (legal.swap.size) text += " Or swap two of your days: click one day, then the other.";
  } else if (p.selectedDay !== null) {
    text = `Day ${p.selectedDay} gets ${edition.name(hand)}. `
      + `Choose the discard pile for ${edition.name(p.selectedTile)} (or click the day again to cancel).`;
  } else {
    text = `You hold ${edition.describe(hand)}. Click a day to put it there (then choose where the old tile goes), `
      + "drag it onto a day, or discard it onto a pile.";
  }
  if (p.forcedPile && legal.any) {
    text += ` You took the last tile of pile ${p.forcedPile}: your discard must go onto pile ${p.forcedPile}, `
      + "so there are always three piles.";
  }
  return text;
}

export function promptPanel() {
  return panel((state) => {
    const game = state.game;
    return {
      edition: state.edition,
      status: game.status,
      phase: game.phase,
      current: game.current,
      seats: game.seats,
      you: game.you,
      spectator: isSpectator(game),
      inHand: game.in_hand,
      moves: movesOf(state),
      selectedDay: state.selectedDay,
      selectedTile: game.rack && state.selectedDay !== null ? game.rack[state.selectedDay - 1] : null,
      forcedPile: game.forced_pile || 0,
      hint: state.hint,
    };
  }, ({ edition, ...p }) => {
    $("hand-title").textContent = p.spectator ? "The table" : "Your move";
    // A hint says which days stand between the rack and a complete journey; it needs a full rack.
    $("hint-button").hidden = p.spectator || p.status !== "playing" || p.phase === "draft";
    const hintText = $("hint-text");
    hintText.hidden = !p.hint;
    if (p.hint) hintText.textContent = p.hint.message || `Change day ${p.hint.days.join(", ")}.`;
    $("prompt").textContent = promptText(edition, p);
  });
}

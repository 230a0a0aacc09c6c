// "Your move": what the player may do now, in words, and the hint.

import { sentence } from "../shared/format.js";
import { list, t } from "../shared/i18n.js";
import { MatchStatus } from "../shared/protocol.js";
import { discardKeys, legalOf } from "./legal.js";
import { panel } from "./panel.js";
import { handedOver, isOver, isSpectator, movesOf } from "./state.js";
import { people } from "./tiles.js";

const $ = (id) => document.getElementById(id);
const TOUCH = window.matchMedia("(pointer: coarse)");

/** The prompt's words for the panel's inputs `p` (exported for the tests of the client's logic). */
export function promptText(edition, p) {
  const names = people(p.seats, p.you);
  const legal = legalOf(p.moves);
  const hand = p.inHand;
  let text;
  if (p.status === MatchStatus.WAITING) text = t("prompt.not_started");
  else if (p.over) text = t("prompt.over");
  else if (p.handedOver === "left") text = t("prompt.left");
  else if (p.handedOver === "away") text = t("prompt.away", { button: t("seat.back") });
  else if (!legal.any) {
    if (p.phase === "place" && hand) text = t("prompt.holds", { name: names.name(p.current), tile: edition.name(hand) });
    else text = p.spectator ? t("prompt.watching") : t("prompt.wait", { name: names.name(p.current) });
  } else if (p.phase === "draft") {
    // A finger taps (and has no number keys to press); a mouse clicks.
    text = t(TOUCH.matches ? "prompt.draft_touch" : "prompt.draft", { tile: edition.describe(hand) });
  } else if (p.phase === "draw") {
    text = t("prompt.draw");
    if (legal.swap.size) text += ` ${t("prompt.swap")}`;
  } else if (p.selectedDay !== null) {
    text = t("prompt.chosen", { day: p.selectedDay, tile: edition.name(hand), old: edition.name(p.selectedTile),
      keys: discardKeys(legal, p.selectedDay) });
  } else {
    text = t("prompt.place", { tile: edition.describe(hand), keys: discardKeys(legal) });
  }
  if (p.forcedPile && legal.any) text += ` ${t("prompt.forced", { pile: p.forcedPile })}`;
  return text;
}

export function promptPanel() {
  return panel((state) => {
    const game = state.game;
    return {
      edition: state.edition,
      status: game.status,
      phase: game.phase,
      over: isOver(game), // played out, or ended early
      handedOver: handedOver(game),
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
    $("hand-title").textContent = p.spectator ? t("hand.table") : t("hand.yours");
    // A hint says which days stand between the rack and a complete journey; it needs a full rack.
    $("hint-button").hidden = p.spectator || p.status !== MatchStatus.PLAYING || p.phase === "draft";
    const hintText = $("hint-text");
    hintText.hidden = !p.hint;
    if (p.hint) hintText.textContent = sentence(p.hint.message) || t("prompt.hint_days", { days: list(p.hint.days) });
    $("prompt").textContent = promptText(edition, p);
  });
}

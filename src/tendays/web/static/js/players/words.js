// How the players' pages write ratings and editions: one decimal, as the reader writes it ("18,1" in German),
// a "?" on a provisional rating.

import { decimal, t } from "../shared/i18n.js";

/** "28.3" ("28,3") or, while the deviation is still large, "28.3?". */
export function ratingText(rating, provisional = false) {
  return `${decimal(rating)}${provisional ? "?" : ""}`;
}

/** "± 4.2" */
export function deviationText(deviation) {
  return `± ${decimal(deviation)}`;
}

/** The edition's name in the reader's words, from the editions the server lists. */
export function editionName(editions, id) {
  const found = editions.find((e) => e.id === id);
  return found ? found.name : id;
}

/** "+1.4" or "−0.8" */
export function changeText(change) {
  return `${change >= 0 ? "+" : "−"}${decimal(Math.abs(change))}`;
}

/** The ladder's note: on which table the bots' ratings were measured. */
export function botsNote(bots, editions) {
  return bots.edition ? t("players.bots_note", { edition: editionName(editions, bots.edition), players: bots.players })
    : "";
}

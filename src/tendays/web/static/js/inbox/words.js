// A notification in the reader's words: one sentence for each kind, from the data the server stored with it.

import { list, t } from "../shared/i18n.js";
import { ChallengeStatus } from "../shared/protocol.js";

/** The sentence that says what `notification` ({kind, data}) tells. */
export function notificationText({ kind, data = {} }) {
  switch (kind) {
    case "challenge":
      return t("inbox.challenge", { name: data.from ?? "?" });
    case "challenge_answered":
      return data.answer === ChallengeStatus.ACCEPTED
        ? t("inbox.challenge_accepted", { name: data.by ?? "?" })
        : t("inbox.challenge_declined", { name: data.by ?? "?" });
    case "your_move":
      return t("inbox.your_move", { names: list(data.opponents ?? []) });
    case "tournament_starting":
      return t("inbox.tournament_starting", { name: data.name ?? "" });
    case "game_ended":
      return t("inbox.game_ended", { place: data.place ?? "?", players: data.players ?? "?",
        names: list(data.opponents ?? []) });
    default:
      return t("inbox.other");
  }
}

/** Where a notification leads (only this site's own addresses), or null. */
export function notificationUrl({ data = {} }) {
  const url = typeof data.url === "string" ? data.url : "";
  return url.startsWith("/") && !url.startsWith("//") ? url : null;
}

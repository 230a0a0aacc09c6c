// The mark of a signed-in player's seat, wherever a name is shown (table, lobby, replay): a small "account"
// badge after the name that links the player's profile, so a look-alike name typed by a stranger, which
// never has it, cannot pass for the account's. A bot account's name also gets a "BOT" mark.

import { el } from "./dom.js";
import { t } from "./i18n.js";

/** The BOT mark for a bot account (`bot_account` in the server's JSON: a program that plays through the Bot
 * API), or null. Words, not colour only: "BOT" to the eye, "bot account" to a screen reader. */
export function botMark(who) {
  if (!who || !who.bot_account) return null;
  return el("span", { class: "bot-account-mark", title: t("players.bot_account") },
    el("span", { "aria-hidden": "true" }, t("players.bot_mark")),
    el("span", { class: "visually-hidden" }, t("players.bot_account")));
}

/** The mark for a seat the server says is an account's (`seat.account`), or null. */
export function accountMark(seat) {
  if (!seat || !seat.account || !seat.name) return null;
  return el("a", { class: "account-mark", href: `/players/${encodeURIComponent(seat.name)}`,
    "aria-label": t("players.account_label", { name: seat.name }) }, t("players.account"));
}

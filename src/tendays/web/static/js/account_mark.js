// The mark of a signed-in player's seat, wherever a name is shown (table, lobby, replay): a small "account"
// badge after the name that links the player's profile, so a look-alike name typed by a stranger, which
// never has it, cannot pass for the account's.

import { el } from "./common.js";
import { t } from "./i18n.js";

/** The mark for a seat the server says is an account's (`seat.account`), or null. */
export function accountMark(seat) {
  if (!seat || !seat.account || !seat.name) return null;
  return el("a", { class: "account-mark", href: `/players/${encodeURIComponent(seat.name)}`,
    "aria-label": t("players.account_label", { name: seat.name }) }, t("players.account"));
}

// Small pieces shared by the panels: players' names, tiles as cards, and a verdict's words.

import { accountMark, botMark } from "../shared/account_mark.js";
import { el } from "../shared/dom.js";
import { t } from "../shared/i18n.js";

/** Names of the seats as the table says them, from the game's `seats` and `you`, and their account marks. */
export function people(seats, you) {
  const isMe = (seat) => you !== null && you !== undefined && seat === you;
  const name = (seat) => {
    const info = seats[seat];
    if (!info) return t("lobby.player_n", { n: seat + 1 });
    return info.name || (info.kind === "bot" ? t("tiles.bot_n", { n: seat + 1 }) : t("lobby.player_n", { n: seat + 1 }));
  };
  // a signed-in player's seat: the account's mark after the name, and a bot account's BOT (account_mark.js)
  const mark = (seat) => [accountMark(seats[seat]), botMark(seats[seat])];
  return { isMe, name, mark };
}

/**
 * A tile as a card: colour, the colour's shape (so no choice rests on hue alone), icon and name. `size` is
 * "big" (rack, piles) or "mini" (lists).
 */
export function tileCard(edition, tileId, { size = "big", extra = "" } = {}) {
  if (tileId === null || tileId === undefined) {
    return el("span", { class: `tile ${size} empty ${extra}` }, el("span", { class: "tile-name" }, t("tile.empty")));
  }
  const tile = edition.tile(tileId);
  const css = edition.css(tileId);
  const any = tile.role === "region" && !css;
  const length = edition.name(tileId).length;
  const long = length > 11 ? " long longer" : length > 9 ? " long" : "";
  const node = el("span", {
    class: `tile ${size} ${tile.role}${any ? " any-colour" : ""}${long} ${extra}`,
    style: css ? `--tile: ${css}` : null,
    title: edition.describe(tileId),
    "data-tile": tileId,
  },
  edition.shape(tileId, size === "mini" ? 10 : 14),
  edition.icon(tileId, size === "mini" ? 14 : 20),
  el("span", { class: "tile-name" }, edition.name(tileId)));
  if (size === "big") {
    const sub = tile.role === "region" ? edition.colorName(tileId)
      : tile.role === "link" ? t("tile.joins", { colour: edition.colorWord(tile.color), regions: edition.regionNounPlural })
        : t("tile.skips", { region: edition.regionNoun });
    node.append(el("span", { class: "tile-sub" }, sub));
  }
  return node;
}

export function miniRack(edition, rack) {
  return el("ol", { class: "mini-rack" }, rack.map((tileId, i) => el("li", {},
    el("span", { class: "mini-day" }, i + 1), tileCard(edition, tileId, { size: "mini" }))));
}

/** A problem of a verdict in words, with the days it is about. */
export function problemText(problem) {
  const text = problem.message || "";
  if (/^\p{L}+ \d/u.test(text)) return text; // the server's sentence names its days ("day 3 → 4: ...")
  const where = problem.to_day ? t("tile.days_step", { day: problem.day, to: problem.to_day })
    : t("tile.day", { day: problem.day });
  return `${where}: ${text}`;
}

/** The status of the step between day d and day d + 1 in a verdict: {ok, message} or null. */
export function stepStatus(journey, day) {
  if (!journey) return null;
  for (const link of journey.links || []) {
    if (link.from_day <= day && day + 1 <= link.to_day) return { ok: link.ok, message: link.message };
  }
  for (const problem of journey.problems || []) {
    if (problem.day === day && problem.to_day === day + 1) return { ok: false, message: problemText(problem) };
  }
  return null;
}

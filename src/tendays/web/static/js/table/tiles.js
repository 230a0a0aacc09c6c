// Small pieces shared by the panels: players' names, tiles as cards, and a verdict's words.

import { el } from "../common.js";

/** Names of the seats as the table says them, from the game's `seats` and `you`. */
export function people(seats, you) {
  const isMe = (seat) => you !== null && you !== undefined && seat === you;
  const name = (seat) => {
    const info = seats[seat];
    if (!info) return `Player ${seat + 1}`;
    return info.name || (info.kind === "bot" ? `Bot ${seat + 1}` : `Player ${seat + 1}`);
  };
  return { isMe, name, whose: (seat) => (isMe(seat) ? "Your" : `${name(seat)}’s`) };
}

/** A tile as a card: colour, icon and name. `size` is "big" (rack, piles) or "mini" (lists). */
export function tileCard(edition, tileId, { size = "big", extra = "" } = {}) {
  if (tileId === null || tileId === undefined) {
    return el("span", { class: `tile ${size} empty ${extra}` }, el("span", { class: "tile-name" }, "empty"));
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
  edition.icon(tileId, size === "mini" ? 14 : 20),
  el("span", { class: "tile-name" }, edition.name(tileId)));
  if (size === "big") {
    const sub = tile.role === "region" ? edition.colorName(tileId)
      : tile.role === "link" ? `joins two ${tile.color} ${edition.regionNoun}s` : `skips one ${edition.regionNoun}`;
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
  if (/^day \d/.test(text)) return text;
  const where = problem.to_day ? `day ${problem.day} → ${problem.to_day}` : `day ${problem.day}`;
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

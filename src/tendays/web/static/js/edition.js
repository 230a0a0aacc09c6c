// An edition as the client needs it: tile names, colours and kinds, from /api/editions/{edition}.

import { svg } from "./common.js";

/** Screen colours for the tile colours of the editions (names as in the edition data). */
export const PALETTE = {
  blue: "#4f8fd6",
  green: "#5cb566",
  orange: "#f29b3c",
  pink: "#ec7fb2",
  yellow: "#f4d03f",
  purple: "#a57ad0",
  red: "#e5534b",
};

// Icons for the transport kinds, drawn in a 24x24 box (no fonts or images needed).
const ICONS = {
  plane: "M12 2c.8 0 1.3.8 1.3 1.8V9l8.2 4.6v2.1l-8.2-2.4v4.8l2.2 1.7V21L12 20l-3.5 1v-1.2l2.2-1.7v-4.8l-8.2 2.4v-2.1"
    + "L10.7 9V3.8C10.7 2.8 11.2 2 12 2z",
  train: "M7 2h10a3 3 0 0 1 3 3v10a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3V5a3 3 0 0 1 3-3zm0 3v5h10V5zm1 8a1.3 1.3 0 1 0 0 2.6"
    + "A1.3 1.3 0 0 0 8 13zm8 0a1.3 1.3 0 1 0 0 2.6A1.3 1.3 0 0 0 16 13zM7.5 19h2l-2 3h-2zm7 0h2l2 3h-2z",
  car: "M5.5 6h13l2.5 6v7h-3v-2H6v2H3v-7zm1.4 2-1.5 4h13.2l-1.5-4zM6.5 13.5a1.3 1.3 0 1 0 0 2.6 1.3 1.3 0 0 0 0-2.6z"
    + "m11 0a1.3 1.3 0 1 0 0 2.6 1.3 1.3 0 0 0 0-2.6z",
  bus: "M5 2h14a2 2 0 0 1 2 2v14h-2v2h-3v-2H8v2H5v-2H3V4a2 2 0 0 1 2-2zm0 3v6h14V5zm1.5 8.5a1.3 1.3 0 1 0 0 2.6 1.3 1.3 0"
    + " 0 0 0-2.6zm11 0a1.3 1.3 0 1 0 0 2.6 1.3 1.3 0 0 0 0-2.6z",
};

/** A small SVG icon for a transport kind (plane, train, car, bus), or null for regions. */
export function kindIcon(kind, size = 18) {
  const d = ICONS[kind];
  if (!d) return null;
  return svg("svg", { viewBox: "0 0 24 24", width: size, height: size, class: "icon", "aria-hidden": "true" },
    svg("path", { d, fill: "currentColor" }));
}

export class EditionInfo {
  /** @param {object} data the edition JSON (as `tendays map EDITION --json`). */
  constructor(data) {
    this.id = data.edition;
    this.title = data.name;
    this.regionNoun = data.region_noun || "region";
    this.anyColorName = data.any_color_name || "any colour";
    this.colors = data.colors || [];
    this.regions = new Map(data.regions.map((r) => [r.id, r]));
    this.tiles = new Map(data.tiles.map((t) => [t.id, t]));
  }

  tile(id) {
    return this.tiles.get(id) || { id, name: id, kind: "region", role: "region", color: null };
  }

  isRegion(id) {
    return this.tile(id).role === "region";
  }

  /** The tile's name in words ("Ohio", "pink airplane", "car"). */
  name(id) {
    if (id === null || id === undefined) return "empty";
    const tile = this.tile(id);
    if (tile.name) return tile.name;
    if (tile.role === "region") return (this.regions.get(id) || {}).name || id;
    return tile.color ? `${tile.color} ${tile.kind}` : tile.kind;
  }

  /** The colour in words, as players say it ("pink", "any colour (purple)"). */
  colorName(id) {
    const tile = this.tile(id);
    if (tile.color) return tile.color;
    if (tile.role === "region") {
      return this.anyColorName === "any colour" ? "any colour" : `any colour (${this.anyColorName})`;
    }
    return "";
  }

  /** The CSS colour of a tile; null for any-colour regions and for skips (drawn striped or neutral). */
  css(id) {
    const color = this.tile(id).color;
    return color ? PALETTE[color] || color : null;
  }

  /** A one-line description for labels and tooltips: "Ohio (yellow)", "pink airplane", "car". */
  describe(id) {
    if (id === null || id === undefined) return "empty";
    const tile = this.tile(id);
    if (tile.role === "region") return `${this.name(id)} (${this.colorName(id)})`;
    return this.name(id);
  }
}

const cache = new Map();

/** Fetch (once) the edition data and the map geometry of an edition. */
export async function loadEdition(editionId, api) {
  if (!cache.has(editionId)) {
    cache.set(editionId, Promise.all([
      api(`/api/editions/${encodeURIComponent(editionId)}`),
      api(`/static/maps/${encodeURIComponent(editionId)}.json`),
    ]).then(([data, geometry]) => ({ edition: new EditionInfo(data), geometry }), (error) => {
      cache.delete(editionId); // let a later call try again
      throw error;
    }));
  }
  return cache.get(editionId);
}

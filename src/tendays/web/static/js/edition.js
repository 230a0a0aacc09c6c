// An edition as the client needs it: tile names, colours, kinds and icons, from /api/editions/{edition}.
// Everything particular to an edition (its colours on screen, its transport icons) comes from that data.

import { svg } from "./common.js";

export class EditionInfo {
  /** @param {object} data the edition JSON (as `tendays map EDITION --json`). */
  constructor(data) {
    this.id = data.edition;
    this.title = data.name;
    this.regionNoun = data.region_noun || "region";
    this.anyColorName = data.any_color_name || "any colour";
    this.colors = data.colors || [];
    this.palette = data.palette || {};
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

  /** The CSS colour of a colour of the edition ("pink" → "#ec7fb2"); the name itself when the data has none. */
  colorCss(color) {
    return this.palette[color] || color;
  }

  /**
   * The CSS colour of a tile: its colour's, or the edition's colour for any-colour regions (USA's purple).
   * Null for skips and for any-colour regions the edition gives no colour (drawn striped or neutral).
   */
  css(id) {
    const tile = this.tile(id);
    if (tile.color) return this.colorCss(tile.color);
    return tile.role === "region" ? this.palette.any || null : null;
  }

  /** A small SVG icon for a transport tile, drawn from the edition's data; null for regions. */
  icon(id, size = 18) {
    const d = this.tile(id).icon;
    if (!d) return null;
    return svg("svg", { viewBox: "0 0 24 24", width: size, height: size, class: "icon", "aria-hidden": "true" },
      svg("path", { d, fill: "currentColor" }));
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

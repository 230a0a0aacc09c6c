// An edition as the client needs it: tile names, colours, kinds, icons and colour shapes, from
// /api/editions/{edition}, in the reader's language. Everything particular to an edition (its colours on
// screen, its transport icons, its words in each language) comes from that data.

import { svg } from "./dom.js";
import { currentLanguage, t } from "./i18n.js";

export class EditionInfo {
  /**
   * @param {object} data the edition JSON (as `tendays map EDITION --json`).
   * @param {{lang?: string, colourBlind?: boolean}} options the reader's language and palette.
   */
  constructor(data, { lang = currentLanguage(), colourBlind = false } = {}) {
    this.id = data.edition;
    this.title = data.name;
    this.language = data.language || "en";
    this.lang = lang;
    const words = (data.words || {})[lang] || (data.words || {}).en || {};
    this.words = words;
    this.regionNoun = words.region_noun || data.region_noun || "region";
    this.regionNounPlural = words.region_noun_plural || `${this.regionNoun}s`;
    this.anyColorName = words.any_color_name || data.any_color_name || "any colour";
    this.anyColorPhrase = words.any_color_phrase || "any colour";
    this.colors = data.colors || [];
    this.palette = (colourBlind && data.palette_cb) || data.palette || {};
    this.symbols = data.symbols || {};
    this.shapes = data.shapes || {};
    this.regions = new Map(data.regions.map((r) => [r.id, r]));
    this.tiles = new Map(data.tiles.map((tile) => [tile.id, tile]));
  }

  tile(id) {
    return this.tiles.get(id) || { id, name: id, kind: "region", role: "region", color: null };
  }

  isRegion(id) {
    return this.tile(id).role === "region";
  }

  /** The tile's name in words ("Ohio", "Kalifornien", "rosa Flugzeug", "Auto"). */
  name(id) {
    if (id === null || id === undefined) return t("tile.empty");
    const tile = this.tile(id);
    const named = tile.names && tile.names[this.lang];
    if (named) return named;
    if (tile.name) return tile.name;
    if (tile.role === "region") return (this.regions.get(id) || {}).name || id;
    return tile.color ? `${tile.color} ${tile.kind}` : tile.kind;
  }

  /** A colour in words, in the reader's language ("pink", "rosa"). */
  colorWord(color) {
    return (this.words.colors || {})[color] || color;
  }

  /** The tile's colour in words, as players say it ("pink", "any colour, purple"). */
  colorName(id) {
    const tile = this.tile(id);
    if (tile.color) return this.colorWord(tile.color);
    if (tile.role === "region") {
      return this.anyColorName === this.anyColorPhrase ? this.anyColorPhrase
        : `${this.anyColorPhrase}, ${this.anyColorName}`; // "Alaska (any colour, purple)" in describe()
    }
    return "";
  }

  /** The colour key of a tile ("pink"; "any" for any-colour regions; null for tiles without colour). */
  colorKey(id) {
    const tile = this.tile(id);
    if (tile.color) return tile.color;
    return tile.role === "region" ? "any" : null;
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

  /** The shape of a tile's colour (● blue, ▲ green, ...), as SVG, so no choice rests on hue alone; or null. */
  shape(id, size = 14) {
    const key = this.colorKey(id);
    const d = key && this.shapes[key];
    if (!d) return null;
    return svg("svg", { viewBox: "0 0 24 24", width: size, height: size, class: `colour-shape shape-${key}`,
      "aria-hidden": "true" }, svg("path", { d }));
  }

  /** A one-line description for labels and tooltips: "Ohio (yellow)", "pink airplane", "car". */
  describe(id) {
    if (id === null || id === undefined) return t("tile.empty");
    const tile = this.tile(id);
    if (tile.role === "region") return `${this.name(id)} (${this.colorName(id)})`;
    return this.name(id);
  }
}

const cache = new Map();

/** Fetch (once) the edition data and the map geometry of an edition. */
export async function loadEdition(editionId, api, options = {}) {
  if (!cache.has(editionId)) {
    cache.set(editionId, Promise.all([
      api(`/api/editions/${encodeURIComponent(editionId)}`),
      api(`/static/maps/${encodeURIComponent(editionId)}.json`),
    ]).then(([data, geometry]) => ({ edition: new EditionInfo(data, options), geometry, data }), (error) => {
      cache.delete(editionId); // let a later call try again
      throw error;
    }));
  }
  return cache.get(editionId);
}

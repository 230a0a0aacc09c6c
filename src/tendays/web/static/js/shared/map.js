// The edition's map as SVG: regions filled by tile colour, and a journey drawn on top day by day.

import { svg } from "./dom.js";
import { t, tn } from "./i18n.js";

const ANY_COLOUR_PATTERN = "any-colour-stripes";
const BROKEN = "#e5534b"; // a broken link, whatever the edition's colours
const PLAIN = "#2b2d42"; // a walk to a neighbour, or a hop over one
const TARGET_PX = 24; // the least tap target, across, on screen (WCAG 2.2 target size)
const NAME_SIZE = 0.95; // a region's name on the map, in map units (a hundredth of the map's longer side)

export class MapView {
  /**
   * @param {HTMLElement} container where the SVG goes
   * @param {import("./edition.js").EditionInfo} edition
   * @param {{viewBox: string, regions: Object<string, {d: string, label: number[]}>}} geometry
   * @param {(text: string) => void} explain says why a link holds or breaks, when it is tapped or focused
   */
  constructor(container, edition, geometry, explain = () => {}) {
    this.edition = edition;
    this.explain = explain;
    this.geometry = geometry;
    const [, , width, height] = geometry.viewBox.split(/[\s,]+/).map(Number);
    this.unit = Math.max(width, height) / 100; // sizes of marks scale with the map
    this.root = svg("svg", {
      viewBox: geometry.viewBox,
      class: "map",
      role: "img",
      "aria-label": t("map.label", { title: edition.title }),
      preserveAspectRatio: "xMidYMid meet",
    });
    this.root.append(this.defs());
    this.regionPaths = new Map();
    this.labelNodes = new Map();
    const regions = svg("g", { class: "regions" });
    const labels = svg("g", { class: "labels", "aria-hidden": "true" });
    for (const [id, shape] of Object.entries(geometry.regions)) {
      const css = edition.css(id);
      const path = svg("path", {
        d: shape.d,
        class: "region",
        fill: css || `url(#${ANY_COLOUR_PATTERN})`,
        "data-region": id,
      }, svg("title", {}, edition.describe(id)));
      this.regionPaths.set(id, path);
      regions.append(path);
      const label = svg("text", {
        x: shape.label[0], y: shape.label[1], class: "region-label", "font-size": (this.unit * 1.05).toFixed(1),
      }, id);
      this.labelNodes.set(id, label);
      labels.append(label);
      // The colour's shape beside the label: no region's colour rests on hue alone.
      const mark = edition.shapes[edition.colorKey(id)];
      if (mark) {
        const size = this.unit * 1.1;
        const x = shape.label[0] - size / 2;
        const y = shape.label[1] - this.unit * 0.9 - size;
        labels.append(svg("path", { d: mark, class: "region-shape",
          transform: `translate(${x.toFixed(1)},${y.toFixed(1)}) scale(${(size / 24).toFixed(4)})` }));
      }
    }
    this.journeyLayer = svg("g", { class: "journey" });
    this.root.append(regions, labels, this.journeyLayer);
    container.replaceChildren(this.root);
    this.nameRegions();
    // The map is drawn at any size (a phone's is a third of a desktop's): its tap targets follow.
    if (typeof ResizeObserver === "function") new ResizeObserver(() => this.fitTargets()).observe(this.root);
  }

  /**
   * Write each region's name on the map where it fits inside the region (on one line, or two at a hyphen or
   * a space); elsewhere the code stays, which the legend explains. Measured in map units, so once is enough.
   */
  nameRegions() {
    const size = this.unit * NAME_SIZE;
    for (const [id, label] of this.labelNodes) {
      const path = this.regionPaths.get(id);
      const name = this.edition.name(id);
      if (!name || name === id || typeof path.isPointInFill !== "function") continue;
      const x = Number(label.getAttribute("x"));
      const y = Number(label.getAttribute("y"));
      const parts = name.match(/^(.+?[-\s])(\S.*)$/u);
      for (const lines of parts ? [[name], [parts[1].trim(), parts[2]]] : [[name]]) {
        const text = svg("text", {
          x, y, class: "region-label region-name", "font-size": size.toFixed(2), "data-region": id,
        }, lines.map((line, i) => svg("tspan", { x, dy: i ? "1.05em" : 0 }, line)));
        label.replaceWith(text);
        if (this.fits(path, text, x, y, size, lines.length)) {
          this.labelNodes.set(id, text);
          break;
        }
        text.replaceWith(label);
      }
    }
  }

  /** Whether a label's box (with a little margin) lies inside its region. */
  fits(path, text, x, y, size, lines) {
    const width = Math.max(...[...text.children].map((line) => line.getComputedTextLength()));
    if (!(width > 0)) return false; // not laid out (a hidden page): keep the code
    const left = x - width / 2 - size * 0.3;
    const right = x + width / 2 + size * 0.3;
    const top = y - size * 0.6;
    const bottom = y + size * (0.6 + 1.05 * (lines - 1));
    const points = [[left, top], [right, top], [left, bottom], [right, bottom], [left, y], [right, y]];
    return points.every(([px, py]) => path.isPointInFill(new DOMPoint(px, py)));
  }

  /** Grow each mark's invisible tap circle to at least TARGET_PX across at the size the map is drawn now. */
  fitTargets() {
    const [, , width, height] = this.geometry.viewBox.split(/[\s,]+/).map(Number);
    const box = this.root.getBoundingClientRect();
    const scale = Math.min(box.width / width, box.height / height); // screen pixels per map unit
    if (!(scale > 0)) return; // not on screen yet: the observer calls again when it is
    for (const hit of this.journeyLayer.querySelectorAll(".hit")) {
      // Half a pixel to spare, so that rounding never makes it smaller than the least.
      hit.setAttribute("r", Math.max(Number(hit.dataset.r), (TARGET_PX / 2 + 0.5) / scale).toFixed(2));
    }
  }

  defs() {
    // Any-colour regions the edition gives no colour of their own match every colour: stripes of all of them.
    const colors = this.edition.colors.map((c) => this.edition.colorCss(c));
    const stripe = this.unit * 0.9;
    const pattern = svg("pattern", {
      id: ANY_COLOUR_PATTERN, patternUnits: "userSpaceOnUse", width: stripe * colors.length, height: stripe,
      patternTransform: "rotate(45)",
    });
    colors.forEach((color, i) => pattern.append(svg("rect", {
      x: i * stripe, y: 0, width: stripe, height: stripe, fill: color, "fill-opacity": 0.75,
    })));
    return svg("defs", {}, pattern);
  }

  point(tileId) {
    const shape = this.geometry.regions[tileId];
    return shape ? { x: shape.label[0], y: shape.label[1] } : null;
  }

  /**
   * Draw a journey: `rack` lists tile ids by day (null for an empty day); `journey` is the server's verdict
   * ({links: [{from_day, to_day, via_day, ok, message}], problems}). `highlight` lists days to mark (a hint).
   */
  showJourney(rack, journey, { highlight = [], label = "your journey" } = {}) {
    const layer = this.journeyLayer;
    layer.replaceChildren();
    for (const path of this.regionPaths.values()) path.classList.remove("on-journey", "dimmed");
    if (!rack) {
      this.root.setAttribute("aria-label", t("map.label", { title: this.edition.title }));
      return;
    }
    const u = this.unit;
    const positions = new Map(); // day -> {x, y}, spread apart when a region appears on several days
    const seen = new Map();
    rack.forEach((tileId, i) => {
      if (tileId === null || !this.edition.isRegion(tileId)) return;
      const base = this.point(tileId);
      if (!base) return;
      const repeat = seen.get(tileId) || 0;
      seen.set(tileId, repeat + 1);
      positions.set(i + 1, { x: base.x + repeat * u * 1.6, y: base.y - repeat * u * 1.2 });
      const path = this.regionPaths.get(tileId);
      if (path) path.classList.add("on-journey");
    });
    if (positions.size) {
      for (const [id, path] of this.regionPaths) if (!rack.includes(id)) path.classList.add("dimmed");
    }
    const links = (journey && journey.links) || [];
    const broken = links.filter((l) => !l.ok).length;
    const counts = [tn("map.places", positions.size), tn("map.good_links", links.length - broken),
      tn("map.broken_links", broken)].join(", ");
    this.root.setAttribute("aria-label", t("map.label_journey", { title: this.edition.title, label, counts }));
    this.root.setAttribute("role", "group"); // its links can be focused, to read why they hold or break
    const lines = svg("g", { class: "links" });
    const badges = svg("g", { class: "badges" });
    for (const link of links) {
      const a = positions.get(link.from_day);
      const b = positions.get(link.to_day);
      if (!a || !b) continue;
      const via = link.via_day ? this.edition.tile(rack[link.via_day - 1]) : null;
      lines.append(this.linkPath(a, b, via, link, badges));
    }
    const hinted = new Set(highlight);
    for (const [day, p] of positions) {
      badges.append(svg("g", { class: `day-badge${hinted.has(day) ? " hinted" : ""}`, "data-day": day },
        svg("circle", { cx: p.x, cy: p.y, r: u * 1.25 }),
        svg("text", { x: p.x, y: p.y, "font-size": (u * 1.35).toFixed(1), dy: "0.35em" }, day),
        svg("title", {}, t("rack.day_label", { day, tile: this.edition.describe(rack[day - 1]) }))));
    }
    layer.append(lines, badges);
    this.fitTargets();
  }

  linkPath(a, b, via, link, badges) {
    const u = this.unit;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const length = Math.hypot(dx, dy) || 1;
    // Flights and trains arc high, car/bus hops arc low, walking is a straight line.
    const bend = via ? (via.role === "link" ? 0.28 : 0.14) * length + u : 0;
    const cx = (a.x + b.x) / 2 - (dy / length) * bend;
    const cy = (a.y + b.y) / 2 + (dx / length) * bend;
    const d = via ? `M${a.x},${a.y} Q${cx},${cy} ${b.x},${b.y}` : `M${a.x},${a.y} L${b.x},${b.y}`;
    const kind = via ? (via.role === "link" ? "flight" : "hop") : "walk";
    const classes = `link ${kind} ${link.ok ? "ok" : "broken"}`;
    const stroke = !link.ok ? BROKEN : via && via.role === "link" ? this.edition.colorCss(via.color) : PLAIN;
    const what = t(link.ok ? "map.link" : "map.broken", { from: link.from_day, to: link.to_day, why: link.message });
    // A tap (phones) or keyboard focus explains a link as well as the mouse pointer's tooltip does.
    const attributes = { class: classes, "data-from": link.from_day, "data-to": link.to_day, tabindex: 0,
      role: "button", "aria-label": what };
    const group = svg("g", attributes,
      svg("title", {}, what),
      svg("path", { d, class: "casing", "stroke-width": u * 0.95 }),
      svg("path", {
        d, class: "stroke", stroke, "stroke-width": u * 0.5,
        "stroke-dasharray": kind === "hop" || !link.ok ? `${u * 1.2} ${u * 0.8}` : null,
      }));
    const mid = { x: 0.25 * a.x + 0.5 * cx + 0.25 * b.x, y: 0.25 * a.y + 0.5 * cy + 0.25 * b.y };
    const explain = () => this.explain(what);
    // The mark halfway (the transport's day, or a red ✗) explains the link when tapped, as the line does; an
    // invisible circle under it makes it a finger's size (fitTargets).
    const hit = (r) => svg("circle", { class: "hit", cx: mid.x, cy: mid.y, r, "data-r": r });
    let mark = null;
    if (via) {
      mark = svg("g", { class: `via-badge ${link.ok ? "ok" : "broken"}`, "data-day": link.via_day }, hit(u * 1.0),
        svg("circle", { cx: mid.x, cy: mid.y, r: u * 1.0, fill: !link.ok ? BROKEN : via.role === "link" ? stroke : "#fff" }),
        svg("text", { x: mid.x, y: mid.y, "font-size": (u * 1.1).toFixed(1), dy: "0.35em" }, link.via_day),
        svg("title", {}, what));
    } else if (!link.ok) {
      mark = svg("g", { class: "broken-mark" }, hit(u * 0.9),
        svg("circle", { cx: mid.x, cy: mid.y, r: u * 0.9 }),
        svg("text", { x: mid.x, y: mid.y, "font-size": (u * 1.2).toFixed(1), dy: "0.35em" }, "✗"),
        svg("title", {}, what));
    }
    if (mark) {
      mark.addEventListener("click", explain);
      badges.append(mark);
    }
    group.addEventListener("focus", explain);
    group.addEventListener("click", explain);
    return group;
  }
}

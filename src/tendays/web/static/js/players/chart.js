// A player's rating history as an SVG chart drawn here, from the profile's points (nothing from other sites):
// the rating after each rated game, the deviation as a band either side, and the bots' published ratings as
// dashed lines, so "you play like the normal bot" can be read off it.

import { svg } from "../shared/dom.js";
import { levelWord, t } from "../shared/i18n.js";

const WIDTH = 640;
const HEIGHT = 260;
const PAD = { left: 44, right: 86, top: 12, bottom: 30 };

/** Round steps for the rating axis (5 points apart, or 1, 2 or 10 to keep 3 to 8 lines). */
function ticks(low, high) {
  const step = [1, 2, 5, 10, 20].find((s) => (high - low) / s <= 8) || 50;
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) out.push(v);
  return out;
}

/**
 * The chart of `points` ([{rating, deviation, change, game}], oldest first) with `bots`
 * ([{level, rating}]); an SVG element with a summary for screen readers.
 */
export function ratingChart(points, bots) {
  const first = points[0];
  const start = { rating: first.rating - first.change, deviation: null, game: null };
  const series = [start, ...points];
  const values = series.flatMap((p) => (p.deviation === null ? [p.rating]
    : [p.rating - p.deviation, p.rating + p.deviation])).concat(bots.map((b) => b.rating));
  const low = Math.floor(Math.min(...values) - 1);
  const high = Math.ceil(Math.max(...values) + 1);
  const x = (i) => PAD.left + (i * (WIDTH - PAD.left - PAD.right)) / Math.max(1, series.length - 1);
  const y = (v) => PAD.top + ((high - v) * (HEIGHT - PAD.top - PAD.bottom)) / (high - low);
  const last = points[points.length - 1];
  const chart = svg("svg", {
    class: "rating-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "data-points": points.length,
    "aria-label": t("players.chart_summary", { n: points.length, from: start.rating.toFixed(1),
      to: last.rating.toFixed(1) }),
  });
  for (const v of ticks(low, high)) {
    chart.append(svg("line", { class: "grid", x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v) }),
      svg("text", { class: "axis", x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end" }, String(v)));
  }
  chart.append(svg("text", { class: "axis", x: (PAD.left + WIDTH - PAD.right) / 2, y: HEIGHT - 6,
    "text-anchor": "middle" }, t("players.chart_games", { n: points.length })));
  let below = -Infinity; // labels of close ratings (normal and hard) are pushed apart to stay readable
  for (const bot of [...bots].sort((a, b) => b.rating - a.rating)) {
    const labelY = Math.max(y(bot.rating) + 4, below + 13);
    below = labelY;
    chart.append(svg("line", { class: "bot-line", x1: PAD.left, x2: WIDTH - PAD.right, y1: y(bot.rating),
      y2: y(bot.rating) }), svg("text", { class: "bot-label", x: WIDTH - PAD.right + 4, y: labelY },
      `${levelWord(bot.level)} ${bot.rating.toFixed(1)}`));
  }
  const banded = series.map((p, i) => [i, p.deviation ?? points[0].deviation, p.rating]);
  const upper = banded.map(([i, d, r]) => `${x(i)},${y(r + d)}`);
  const lower = banded.map(([i, d, r]) => `${x(i)},${y(r - d)}`).reverse();
  chart.append(svg("polygon", { class: "band", points: [...upper, ...lower].join(" ") }),
    svg("polyline", { class: "line", points: series.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ") }));
  points.forEach((p, i) => {
    const change = `${p.change >= 0 ? "+" : "−"}${Math.abs(p.change).toFixed(1)}`;
    chart.append(svg("circle", { class: p.change >= 0 ? "point up" : "point down", cx: x(i + 1), cy: y(p.rating),
      r: 3.5 }, svg("title", {}, `${p.rating.toFixed(1)} (${change})`)));
  });
  return chart;
}

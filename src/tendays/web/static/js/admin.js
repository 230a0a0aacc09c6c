// The operator's page: every game (unfinished or ended), closing one, and the per-client limits being hit.
// The admin token is kept for this tab only (session storage) and sent as a bearer token.

import { ApiError, el, timeAgo } from "./common.js";

const $ = (id) => document.getElementById(id);
const KEY = "tendays.admin";
let page = 1;

async function call(path, method = "GET") {
  const response = await fetch(path, { method, headers: { Authorization: `Bearer ${sessionStorage.getItem(KEY) || ""}` } });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, (data && data.detail) || `the server answered ${response.status}`);
  return data;
}

function seatsText(seats) {
  if (!seats) return "";
  return seats.map((s) => `${s.name}${s.kind === "bot" ? ` (${s.bot})` : s.left ? " (left)" : s.away ? " (away)"
    : s.connected ? " (online)" : ""}`).join(", ");
}

async function closeGame(id) {
  if (!window.confirm(`Close game ${id}? It ends with no winner.`)) return;
  try {
    await call(`/api/admin/games/${encodeURIComponent(id)}/close`, "POST");
  } catch (error) {
    $("admin-error").textContent = error.message;
  }
  refresh();
}

async function refresh() {
  $("admin-error").textContent = "";
  const which = document.querySelector("input[name=which]:checked").value;
  try {
    const answer = await call(`/api/admin/games?status=${which}&page=${page}`);
    $("games-summary").textContent = `${answer.total} games (${answer.held} unfinished held in memory); page `
      + `${answer.page} of ${answer.pages}`;
    $("admin-games").replaceChildren(...answer.games.map((game) => el("li", { class: "game-item", "data-game": game.id },
      el("div", { class: "game-head" }, el("strong", {}, game.id), el("span", { class: `status ${game.status}` },
        game.ended ? `${game.status} (${game.ended})` : game.status),
      el("span", { class: "muted small" }, `${game.edition} · ${game.moves} moves · created ${timeAgo(game.created)}`
        + ` · last move ${timeAgo(game.last_move_at)} · ${game.watchers} connected`)),
      el("div", { class: "small" }, seatsText(game.seats)),
      el("div", { class: "actions" },
        el("a", { class: "button", href: `/play/${encodeURIComponent(game.id)}#spectate` }, "Watch"),
        game.finished ? null : el("button", { type: "button", "data-close": game.id, onclick: () => closeGame(game.id) },
          "Close")))));
    $("admin-pager").replaceChildren(
      el("button", { type: "button", class: "quiet", disabled: page <= 1, onclick: () => { page -= 1; refresh(); } }, "←"),
      el("button", { type: "button", class: "quiet", disabled: page >= answer.pages,
        onclick: () => { page += 1; refresh(); } }, "→"));
    const limits = await call("/api/admin/limits");
    $("limits").replaceChildren(
      el("p", { class: "small" }, `Open table connections: ${limits.open_connections}. Refused since the start: `
        + (Object.entries(limits.refused).map(([what, n]) => `${what} ${n}`).join(", ") || "none")),
      el("p", { class: "muted small" }, `Limits: ${Object.entries(limits.limits).map(([k, v]) => `${k} ${v}`).join(", ")}`),
      el("ul", { class: "log" }, limits.recent.slice(0, 50).map((r) => el("li", {},
        `${new Date(r.at * 1000).toLocaleTimeString()} ${r.address}: ${r.limit}`))));
  } catch (error) {
    $("admin-error").textContent = error.status === 401 ? "Enter the admin token." : error.message;
  }
}

$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(KEY, $("token").value.trim());
  $("token").value = "";
  refresh();
});
$("which").addEventListener("change", () => { page = 1; refresh(); });
$("sweep").addEventListener("click", async () => {
  try {
    const done = await call("/api/admin/sweep", "POST");
    $("admin-error").textContent = `${done.closed} closed, ${done.deleted} deleted.`;
  } catch (error) {
    $("admin-error").textContent = error.message;
  }
  refresh();
});
refresh();

// The operator's page: every game (unfinished or ended), closing one, and the per-client limits being hit.
// The admin token is kept for this tab only (session storage) and sent as a bearer token.

import { ApiError, el, markReady, timeAgo } from "./common.js";
import { startLanguage, t, tn } from "./i18n.js";
import { preferences } from "./preferences.js";

await startLanguage();
document.getElementById("preferences").replaceWith(preferences());

const $ = (id) => document.getElementById(id);
const KEY = "tendays.admin";
let page = 1;

async function call(path, method = "GET") {
  const response = await fetch(path, { method, headers: { Authorization: `Bearer ${sessionStorage.getItem(KEY) || ""}` } });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.detail) || t("api.status", { status: response.status, text: "" }));
  }
  return data;
}

function seatsText(seats) {
  if (!seats) return "";
  const state = (s) => (s.kind === "bot" ? s.bot : s.left ? t("admin.left") : s.away ? t("admin.away")
    : s.connected ? t("players.online") : "");
  return seats.map((s) => (state(s) ? `${s.name} (${state(s)})` : s.name)).join(", ");
}

async function closeGame(id) {
  if (!window.confirm(t("admin.close_confirm", { id }))) return;
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
    $("games-summary").textContent = tn("admin.summary", answer.total,
      { held: answer.held, page: answer.page, pages: answer.pages });
    $("admin-games").replaceChildren(...answer.games.map((game) => el("li", { class: "game-item", "data-game": game.id },
      el("div", { class: "game-head" }, el("strong", {}, game.id), el("span", { class: `status ${game.status}` },
        game.ended ? `${t(`status.${game.status}`)} (${t(`admin.${game.ended}`)})` : t(`status.${game.status}`)),
      el("span", { class: "muted small" }, tn("admin.game_line", game.moves, { edition: game.edition,
        created: timeAgo(game.created), last: timeAgo(game.last_move_at), watchers: game.watchers }))),
      el("div", { class: "small" }, seatsText(game.seats)),
      el("div", { class: "actions" },
        el("a", { class: "button", href: `/play/${encodeURIComponent(game.id)}#spectate` }, t("lobby.watch")),
        game.finished ? null : el("button", { type: "button", "data-close": game.id, onclick: () => closeGame(game.id) },
          t("admin.close"))))));
    $("admin-pager").replaceChildren(
      el("button", { type: "button", class: "quiet", disabled: page <= 1, "aria-label": t("admin.previous"),
        onclick: () => { page -= 1; refresh(); } }, "←"),
      el("button", { type: "button", class: "quiet", disabled: page >= answer.pages, "aria-label": t("admin.next"),
        onclick: () => { page += 1; refresh(); } }, "→"));
    const limits = await call("/api/admin/limits");
    $("limits").replaceChildren(
      el("p", { class: "small" }, t("admin.connections", { open: limits.open_connections,
        refused: Object.entries(limits.refused).map(([what, n]) => `${what} ${n}`).join(", ") || t("lobby.none") })),
      el("p", { class: "muted small" }, t("admin.limits_line", {
        limits: Object.entries(limits.limits).map(([k, v]) => `${k} ${v}`).join(", ") })),
      el("ul", { class: "log" }, limits.recent.slice(0, 50).map((r) => el("li", {},
        `${new Date(r.at * 1000).toLocaleTimeString()} ${r.address}: ${r.limit}`))));
  } catch (error) {
    $("admin-error").textContent = error.status === 401 ? t("admin.enter_token") : error.message;
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
    $("admin-error").textContent = t("admin.swept", { closed: done.closed, deleted: done.deleted });
  } catch (error) {
    $("admin-error").textContent = error.message;
  }
  refresh();
});
$("token-open").disabled = false; // disabled in the page until wired: no reload that loses the token
markReady();
refresh();

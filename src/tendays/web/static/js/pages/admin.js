// The operator's page: every game (unfinished or ended), closing one, the per-client limits being hit, and
// moderation: the reports people sent (closed with a note), the accounts flagged for throwing rated games,
// an account's suspension, closure, hiding or annulled games, and the audit log of every operator action.
// The admin token is kept for this tab only (session storage) and sent as a bearer token.

import { el, markReady } from "../shared/dom.js";
import { timeAgo } from "../shared/format.js";
import { startLanguage, t, tn } from "../shared/i18n.js";
import { preferences } from "../shared/preferences.js";
import { ApiError } from "../shared/rest.js";
import { whoBar } from "../shared/who.js";

await startLanguage();
document.getElementById("preferences").replaceWith(preferences());

const $ = (id) => document.getElementById(id);
whoBar().then((bar) => $("who").replaceWith(bar));
const KEY = "tendays.admin";
let page = 1;

async function call(path, method = "GET", body = undefined) {
  const headers = { Authorization: `Bearer ${sessionStorage.getItem(KEY) || ""}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
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
    await refreshModeration();
  } catch (error) {
    $("admin-error").textContent = error.status === 401 ? t("admin.enter_token") : error.message;
  }
}

const when = (at) => new Date(at * 1000).toLocaleString();

function reportItem(report) {
  const open = report.status === "open";
  const note = el("input", { id: `report-note-${report.id}`, maxlength: 1000, autocomplete: "off" });
  return el("li", { class: "game-item", "data-report": report.id },
    el("div", { class: "game-head" }, el("strong", {}, `#${report.id}`),
      el("span", { class: `status ${open ? "waiting" : "over"}` }, t(open ? "admin.report_open" : "admin.report_closed")),
      el("span", { class: "muted small" }, when(report.created))),
    el("div", { class: "small" }, t("admin.report_line", {
      reporter: report.reporter ?? t("admin.deleted_account"), reported: report.reported,
      reason: t(`moderation.reason.${report.reason}`) })),
    report.game ? el("div", { class: "small" }, el("a", { href: `/replay/${encodeURIComponent(report.game)}` },
      t("admin.report_game", { id: report.game }))) : null,
    report.text ? el("blockquote", { class: "small" }, report.text) : null,
    open
      ? el("div", { class: "actions" },
        el("label", { class: "visually-hidden", for: note.id }, t("admin.close_note", { id: report.id })),
        note,
        el("button", { type: "button", "data-close-report": report.id, onclick: () => closeReport(report.id, note.value) },
          t("admin.close_report")))
      : el("div", { class: "muted small" }, t("admin.closed_with", { note: report.closed_note || "–" })));
}

function flagItem(flag) {
  return el("li", { class: "game-item", "data-flag": flag.account },
    el("div", { class: "game-head" }, el("strong", {}, flag.account),
      el("span", { class: "muted small" }, t(`admin.status.${flag.status}`)),
      el("span", { class: "small" }, tn("admin.quick_losses", flag.quick_losses, { day: flag.in_a_day }))),
    el("ul", { class: "log" }, flag.games.map((game) => el("li", {},
      el("a", { href: `/replay/${encodeURIComponent(game.id)}` }, game.id), " ",
      t(`admin.how.${game.how}`, { moves: game.moves, when: when(game.finished_at) })))),
    el("div", { class: "actions" }, el("button", { type: "button", onclick: () => {
      $("moderate-name").value = flag.account;
      $("moderate-name").focus();
    } }, t("admin.moderate_this", { name: flag.account }))));
}

function auditItem(entry) {
  const whom = entry.account ? ` ${entry.account}` : "";
  const report = entry.report ? ` #${entry.report}` : "";
  const games = entry.outcome.games ? ` (${entry.outcome.games.join(", ")})` : "";
  const what = entry.outcome.tournament ?? entry.outcome.series; // actions on site tournaments
  const event = what ? ` #${what}${entry.outcome.name ? ` (${entry.outcome.name})` : ""}` : "";
  return el("li", { "data-audit": entry.action },
    `${when(entry.at)} ${entry.operator}: ${t(`admin.action.${entry.action}`)}${report}${whom}${event}${games}`,
    entry.note ? ` — ${entry.note}` : "");
}

async function refreshModeration() {
  const reports = await call("/api/admin/reports");
  $("reports-summary").textContent = tn("admin.reports_summary", reports.total, { open: reports.open });
  $("admin-reports").replaceChildren(...reports.reports.map(reportItem));
  const flags = await call("/api/admin/flags");
  $("flags-rule").textContent = t("admin.flags_rule", { losses: flags.rule.losses, hours: flags.rule.window_hours,
    moves: flags.rule.quick_loss_moves, days: flags.rule.lookback_days });
  $("admin-flags").replaceChildren(...(flags.accounts.length ? flags.accounts.map(flagItem)
    : [el("li", { class: "muted small" }, t("lobby.none"))]));
  const audit = await call("/api/admin/audit");
  $("admin-audit").replaceChildren(...(audit.entries.length ? audit.entries.map(auditItem)
    : [el("li", { class: "muted small" }, t("lobby.none"))]));
}

async function closeReport(id, note) {
  try {
    await call(`/api/admin/reports/${id}/close`, "POST", { note });
    $("admin-error").textContent = "";
  } catch (error) {
    $("admin-error").textContent = error.message;
  }
  refresh();
}

const LASTING = new Set(["close", "annul"]); // asked twice: they cannot be undone

async function moderate(action) {
  const name = $("moderate-name").value.trim();
  if (!name) {
    $("moderate-result").textContent = t("admin.name_needed");
    $("moderate-name").focus();
    return;
  }
  if (LASTING.has(action) && !window.confirm(t(`admin.confirm.${action}`, { name }))) return;
  try {
    const done = await call(`/api/admin/accounts/${encodeURIComponent(name)}/${action}`, "POST",
      { note: $("moderate-note").value });
    $("moderate-result").textContent = action === "annul"
      ? tn("admin.done.annul", done.games.length, { name: done.account, editions: done.editions.join(", ") })
      : t(`admin.done.${action}`, { name: done.account });
    $("moderate-note").value = "";
  } catch (error) {
    $("moderate-result").textContent = error.message;
  }
  refresh();
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
$("moderate-actions").addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (button) moderate(button.dataset.action);
});
$("moderate-form").addEventListener("submit", (event) => event.preventDefault());
$("token-open").disabled = false; // disabled in the page until wired: no reload that loses the token
markReady();
refresh();

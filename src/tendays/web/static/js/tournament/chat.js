// The tournament's chat: everyone reads it; a signed-in person writes. Lines are shown as text, never as
// HTML; the list is redrawn only when a line came or went, and the writing box never is, so a person
// typing loses nothing when the page refreshes.

import { el } from "../shared/dom.js";
import { sentence } from "../shared/format.js";
import { t } from "../shared/i18n.js";
import { api, ApiError } from "../shared/rest.js";

const $ = (id) => document.getElementById(id);

function timeOf(line) {
  const when = new Date((line.at ?? 0) * 1000);
  return Number.isNaN(when.getTime()) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** The chat of tournament `id`: `refresh()` reads its lines, the form sends the reader's. */
export function tournamentChat(id, session) {
  const path = `/api/tournaments/${encodeURIComponent(id)}/chat`;
  let shown = ""; // what the list shows, to redraw only on a change
  $("event-chat-form").hidden = !session;
  $("event-chat-signed-out").hidden = Boolean(session);

  function draw(lines) {
    const key = JSON.stringify(lines.map((line) => [line.id ?? line.at, line.name, line.text]));
    if (key === shown) return;
    shown = key;
    const list = $("event-chat");
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    list.replaceChildren(...(lines.length ? lines.map((line) => el("li", {
      class: `chat-line${session && line.name === session.name ? " mine" : ""}` },
    el("span", { class: "muted small" }, timeOf(line)), " ", el("strong", {}, line.name), ": ",
    // a line of someone the reader blocked comes as the server's words saying so
    el("span", { class: line.hidden ? "chat-text muted" : "chat-text" }, line.text)))
      : [el("li", { class: "muted small" }, t("chat.none"))]));
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  async function refresh() {
    try {
      const answer = await api(path);
      draw(answer.lines || answer.chat || []);
    } catch {
      // the next refresh tries again; the standings say if the server is away
    }
  }

  $("event-chat-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("event-chat-input");
    const text = input.value.trim();
    if (!text) return;
    try {
      await api(path, { method: "POST", body: { text } });
      input.value = "";
      $("event-chat-error").textContent = "";
      await refresh();
    } catch (error) {
      $("event-chat-error").textContent = sentence(error instanceof ApiError ? error.message : String(error));
    }
  });
  return { refresh };
}

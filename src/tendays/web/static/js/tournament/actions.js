// What a signed-in person does on a tournament's page: join, withdraw, and in an arena pause (no new game
// is given until they come back) and resume. A visitor who is not signed in is offered the sign-in page.
// The server decides what is allowed; its refusal is shown in words.

import { sentence } from "../shared/format.js";
import { t } from "../shared/i18n.js";
import { TournamentKind, TournamentStatus } from "../shared/protocol.js";
import { api, ApiError } from "../shared/rest.js";

const $ = (id) => document.getElementById(id);

/** Show the buttons that fit `event` for `session` (null: nobody signed in). */
export function showActions(event, session) {
  const open = event.status !== TournamentStatus.FINISHED && event.status !== TournamentStatus.CANCELLED;
  const me = event.me || { joined: false, paused: false };
  $("sign-in-link").hidden = Boolean(session) || !open;
  $("join-button").hidden = !session || !open || me.joined;
  $("withdraw-button").hidden = !session || !open || !me.joined;
  const pause = $("pause-button");
  pause.hidden = !session || !open || !me.joined || event.kind !== TournamentKind.ARENA;
  pause.setAttribute("aria-pressed", String(Boolean(me.paused)));
  pause.textContent = t(me.paused ? "tournaments.resume" : "tournaments.pause");
}

/** Wire the buttons of tournament `id`; `changed()` reloads the page's state after each answer. */
export function installActions(id, changed) {
  const base = `/api/tournaments/${encodeURIComponent(id)}`;
  const act = async (button, path, method, said) => {
    button.disabled = true;
    $("action-error").textContent = "";
    $("action-said").textContent = "";
    try {
      await api(`${base}/${path}`, { method });
      $("action-said").textContent = t(said);
    } catch (error) {
      $("action-error").textContent = sentence(error instanceof ApiError ? error.message : String(error));
    } finally {
      button.disabled = false;
    }
    await changed();
    if (button.hidden) { // joined or withdrew: the focus goes on to the button that took this one's place
      const next = document.querySelector("#event-actions button:not([hidden])");
      if (next) next.focus();
    }
  };
  $("join-button").addEventListener("click", (e) => act(e.currentTarget, "join", "POST", "tournaments.joined"));
  $("withdraw-button").addEventListener("click", (e) => act(e.currentTarget, "join", "DELETE",
    "tournaments.withdrew"));
  $("pause-button").addEventListener("click", (e) => {
    const paused = e.currentTarget.getAttribute("aria-pressed") === "true";
    act(e.currentTarget, "pause", paused ? "DELETE" : "PUT", paused ? "tournaments.resumed" : "tournaments.paused_now");
  });
}

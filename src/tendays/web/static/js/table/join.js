// Joining a game from its link: the player's name for a free seat, or watching without playing.

import { signedIn } from "../shared/account_session.js";
import { el, fillIfEmpty } from "../shared/dom.js";
import { playPath } from "../shared/format.js";
import { levelWord, t } from "../shared/i18n.js";
import { MatchStatus, SeatKind } from "../shared/protocol.js";
import { api } from "../shared/rest.js";
import { remembered } from "../shared/storage.js";
import { linkTournament } from "./tournament_link.js";

const $ = (id) => document.getElementById(id);

function heading(key) {
  $("join-title").dataset.i18n = key;
  $("join-title").textContent = t(key);
}

/** Show the join panel with what the game is and whether a seat is free. */
export async function offerJoin(gameId) {
  $("join").hidden = false;
  const summary = $("join-summary");
  const joinButton = $("join-button");
  joinButton.disabled = true; // until the page knows who is asking and whether a seat is free for them
  $("spectate-button").disabled = false;
  $("join-lobby").hidden = true;
  $("join-note").textContent = "";
  $("join-name-field").hidden = false;
  joinButton.hidden = false;
  $("spectate-button").classList.remove("primary");
  heading("join.title");
  const session = await signedIn();
  if (session) {
    $("join-name").value = session.name; // a signed-in person joins under the account's name
    $("join-name").readOnly = true;
  } else {
    fillIfEmpty($("join-name"), remembered.name());
  }
  try {
    const game = await api(`/api/games/${encodeURIComponent(gameId)}`);
    linkTournament(game);
    const free = game.seats.filter((s) => s.kind === SeatKind.HUMAN && !s.taken && !s.reserved).length;
    const players = game.seats.map((s) => (s.kind === SeatKind.BOT ? t("join.a_bot", { level: levelWord(s.bot) }) : s.taken ? s.name
      : s.reserved ? t("join.kept", { name: s.name || t("join.last_player") }) : t("join.free")));
    const editions = await api("/api/editions").catch(() => []);
    const edition = editions.find((e) => e.id === game.edition);
    summary.textContent = `${edition ? edition.name : game.edition}: ${players.join(", ")}.`;
    if (!free || game.status !== MatchStatus.WAITING) { // nothing to join: said as it is, with watching the way on
      const over = game.status === MatchStatus.OVER;
      heading(over ? "join.title_over" : "join.title_watch");
      $("join-note").textContent = over ? t("join.over") : game.status === MatchStatus.WAITING ? t("join.reserved") : t("join.full");
      $("join-name-field").hidden = true;
      joinButton.hidden = true;
      $("spectate-button").classList.add("primary"); // the one way on
    } else if (game.rated && !session) { // the server would refuse: say why, and sign in to come back here
      $("join-error").replaceChildren(t("lobby.rated_join_signed_out"), " ",
        el("a", { href: `/account?next=${encodeURIComponent(playPath(gameId))}` }, t("lobby.rated_sign_in")));
    } else {
      joinButton.disabled = false;
    }
  } catch (error) {
    summary.textContent = error.status === 404 ? t("join.no_game") : t("join.failed_load", { error: error.message });
    // Nothing to watch either: the way on is the lobby.
    $("spectate-button").disabled = error.status === 404;
    $("join-lobby").hidden = error.status !== 404;
  }
}

/**
 * Handle the join panel's form and its "watch" button. `sit(token)` starts the table with the seat token
 * the server gave, or as a spectator (token null).
 */
export function installJoin(gameId, sit) {
  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const nameInput = $("join-name");
    const joinButton = $("join-button");
    const name = nameInput.value.trim();
    if (!name) {
      $("join-error").textContent = t("lobby.name_needed");
      nameInput.focus();
      return;
    }
    remembered.setName(name);
    joinButton.disabled = true;
    try {
      const answer = await api(`/api/games/${encodeURIComponent(gameId)}/join`, { method: "POST", body: { name } });
      remembered.setSeat(answer.id, answer.token, { seat: answer.seat });
      history.replaceState(null, "", `${playPath(gameId)}#token=${encodeURIComponent(answer.token)}`);
      sit(answer.token);
    } catch (error) {
      $("join-error").textContent = t("lobby.join_failed", { error: error.message });
      joinButton.disabled = false;
    }
  });

  $("spectate-button").addEventListener("click", () => {
    history.replaceState(null, "", `${playPath(gameId)}#spectate`);
    sit(null);
  });
}

// Joining a game from its link: the player's name for a free seat, or watching without playing.

import { api, playPath, remembered } from "../common.js";

const $ = (id) => document.getElementById(id);

/** Show the join panel with what the game is and whether a seat is free. */
export async function offerJoin(gameId) {
  $("join").hidden = false;
  $("join-name").value = remembered.name();
  const summary = $("join-summary");
  const joinButton = $("join-button");
  joinButton.disabled = false;
  try {
    const game = await api(`/api/games/${encodeURIComponent(gameId)}`);
    const free = game.seats.filter((s) => s.kind === "human" && !s.taken && !s.reserved).length;
    const players = game.seats.map((s) => (s.kind === "bot" ? `a bot (${s.bot})` : s.taken ? s.name
      : s.reserved ? `a seat kept for ${s.name || "the last game's player"}` : "a free seat"));
    const editions = await api("/api/editions").catch(() => []);
    const edition = editions.find((e) => e.id === game.edition);
    summary.textContent = `${edition ? edition.name : game.edition}: ${players.join(", ")}.`;
    if (!free || game.status !== "waiting") {
      joinButton.disabled = true;
      $("join-error").textContent = game.status === "over" ? "This game is over; you can still look at it."
        : game.status === "waiting" ? "The free seats are kept for the last game's players (a rematch); you can watch."
          : "Every seat is taken; you can watch.";
    }
  } catch (error) {
    summary.textContent = error.status === 404 ? "There is no such game. Check the link, or start one in the lobby."
      : `The game could not be loaded: ${error.message}`;
    joinButton.disabled = true;
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
      $("join-error").textContent = "Please enter your name: the other players see it at the table.";
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
      $("join-error").textContent = `You could not join: ${error.message}`;
      joinButton.disabled = false;
    }
  });

  $("spectate-button").addEventListener("click", () => {
    history.replaceState(null, "", `${playPath(gameId)}#spectate`);
    sit(null);
  });
}

// A tournament game's way back to its event: the table's header names the tournament with a link to its page
// (standings, the next pairing), as the game's public summary says.

import { api } from "../common.js";
import { t } from "../i18n.js";

/** Show the link to the tournament that game `gameId` belongs to; nothing for any other game. */
export async function showTournamentLink(gameId) {
  if (!gameId) return;
  let game;
  try {
    game = await api(`/api/games/${encodeURIComponent(gameId)}`);
  } catch {
    return; // no such game (the table says so) or the server is away: no link to offer
  }
  if (!game.tournament) return;
  const link = document.getElementById("tournament-link");
  link.href = game.tournament.url;
  link.textContent = t("table.tournament_link", { name: game.tournament.name });
  link.hidden = false;
}

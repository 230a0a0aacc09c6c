// A tournament game's way back to its event: the table's header names the tournament with a link to its page
// (standings, the next pairing), as the game's public summary says. The join panel reads that summary anyway
// and hands it over (linkTournament), so the page asks for it once.

import { t } from "../shared/i18n.js";
import { api } from "../shared/rest.js";

let known = false; // the summary was read: the link shows, or there is none to show

/** Show the link to the tournament of `game` (its public summary); nothing for any other game. */
export function linkTournament(game) {
  known = true;
  if (!game.tournament) return;
  const link = document.getElementById("tournament-link");
  link.href = game.tournament.url;
  link.textContent = t("table.tournament_link", { name: game.tournament.name });
  link.hidden = false;
}

/** Show the link to the tournament that game `gameId` belongs to, reading its summary unless read already. */
export async function showTournamentLink(gameId) {
  if (!gameId || known) return;
  try {
    linkTournament(await api(`/api/games/${encodeURIComponent(gameId)}`));
  } catch {
    // no such game (the table says so) or the server is away: no link to offer
  }
}

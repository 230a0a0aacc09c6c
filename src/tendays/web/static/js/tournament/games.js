// A tournament's games: those being played, each with a link to watch it as a spectator (or, for the
// reader's own, to play it), and those that ended, with their places and a link to the replay.

import { el } from "../shared/dom.js";
import { playPath } from "../shared/format.js";
import { t } from "../shared/i18n.js";
import { MatchStatus, TournamentKind } from "../shared/protocol.js";
import { botNames } from "./words.js";

const $ = (id) => document.getElementById(id);

/** "1st Ada, 2nd Bob": the places of an ended game (seat by seat), or the seats alone. */
function seatsText(game, bots) {
  const names = game.seats.map((name) => bots.get(name) ?? name);
  if (!game.places) return names.join(" – ");
  return names.map((name, i) => t("tournaments.placed", { place: game.places[i], name })).join(", ");
}

function roundText(game, kind) {
  return kind === TournamentKind.SWISS && game.round ? `${t("tournaments.round", { round: game.round })} · ` : "";
}

function item(game, kind, me, bots) {
  const playing = game.status === MatchStatus.PLAYING;
  const mine = Boolean(me) && game.seats.includes(me);
  const link = playing
    ? el("a", { href: mine ? playPath(game.id) : `${playPath(game.id)}#spectate`, class: "button small-button" },
      t(mine ? "tournaments.your_game" : "tournaments.watch"))
    : el("a", { href: `/replay/${encodeURIComponent(game.id)}`, class: "button small-button" },
      t("tournaments.replay"));
  return el("li", { "data-game": game.id, class: mine ? "mine" : null },
    el("span", {}, roundText(game, kind), seatsText(game, bots)), " ", link);
}

/** Draw the games of `event` for the reader `me` (a name, or null); the newest first, as the server lists them. */
export function showGames(event, me) {
  const games = event.games || [];
  const bots = botNames(event);
  const playing = games.filter((game) => game.status === MatchStatus.PLAYING);
  const ended = games.filter((game) => game.status !== MatchStatus.PLAYING);
  $("playing").replaceChildren(...(playing.length ? playing.map((game) => item(game, event.kind, me, bots))
    : [el("li", { class: "muted" }, t("tournaments.none_playing"))]));
  $("ended").replaceChildren(...(ended.length ? ended.map((game) => item(game, event.kind, me, bots))
    : [el("li", { class: "muted" }, t("tournaments.none_ended"))]));
}

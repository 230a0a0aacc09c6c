// What a screen reader hears without looking: a polite live region that says whose turn it is when the
// turn changes, and what the other players did (the log's sentences), as it happens.

import { t } from "../shared/i18n.js";
import { MatchStatus } from "../shared/protocol.js";
import { isOver } from "./state.js";
import { people } from "./tiles.js";

const MOST = 3; // at most this many of the others' moves are read out at once

export function announcerPanel() {
  let heard = null; // the length of the log already announced
  let turnHeard = null;
  return (state) => {
    const game = state.game;
    const names = people(game.seats, game.you);
    const log = game.log || [];
    const parts = [];
    if (heard !== null && log.length > heard) {
      const others = log.slice(heard).filter((entry) => entry.player === null || entry.player === undefined
        || !names.isMe(entry.player));
      parts.push(...others.slice(-MOST).map((entry) => entry.text));
    }
    heard = log.length;
    const playing = game.status === MatchStatus.PLAYING && !isOver(game);
    const turn = playing ? `${game.current}:${game.phase}` : game.status;
    if (turn !== turnHeard && playing && game.phase !== "draft") {
      parts.push(names.isMe(game.current) ? t("banner.your_turn") : t("banner.turn_of", { name: names.name(game.current) }));
    }
    turnHeard = turn;
    if (parts.length) document.getElementById("announcer").textContent = parts.join(" ");
  };
}

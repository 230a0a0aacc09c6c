// A replay's positions as the table's `game` objects, so the table's own panels draw them. The server sends each
// position once, without what every position shares (seats, options, the whole log, the verdicts).

import { MatchStatus } from "../shared/protocol.js";

/** The table's `game` at position `n` (after n moves): a spectator's view with every rack shown (for a game
 * ended early, only what its watchers saw: `racks` null). */
export function frameGame(replay, n) {
  const frame = replay.frames[n];
  return {
    ...frame,
    id: replay.id,
    edition: replay.edition,
    options: replay.options,
    status: MatchStatus.OVER, // a replay offers no moves; every rack is shown
    you: null,
    seats: replay.seats.map((seat, i) => ({ ...seat, connected: true, away: false, left: false,
      tiles: frame.rack_counts[i] })),
    journey: null,
    journeys: frame.journeys && frame.journeys.map((v) => replay.verdicts[v]), // null: the racks stay hidden
    legal_moves: [],
    log: replay.log.slice(0, frame.log_length),
    chat: [],
  };
}

/** The log's sentences for move `n` (what that move did), or [] before the first move. */
export function moveSentences(replay, n) {
  if (n === 0) return [];
  return replay.log.slice(replay.frames[n - 1].log_length, replay.frames[n].log_length).map((entry) => entry.text);
}

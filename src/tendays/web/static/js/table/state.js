// The table's state: one store holding everything the page shows. It changes only through update(),
// which makes a new frozen state and tells every listener; nothing else keeps state of its own.

import { MatchStatus } from "../shared/protocol.js";

/** Moves offered while none may be made (a move is on its way, or it is not this player's turn). */
const NO_MOVES = Object.freeze([]);

export const INITIAL = {
  token: null, // this seat's token; null for a spectator
  game: null, // the last state message's game, as the server sent it
  version: -1,
  edition: null, // the EditionInfo of the game's edition, once loaded
  geometry: null, // the map geometry of that edition
  editionError: null, // why the edition could not be loaded
  link: { state: "connecting", attempt: 0 }, // the connection, as TableConnection reports it
  error: null, // a message for the error banner
  busy: false, // a move is on its way; wait for the answer
  selectedDay: null, // a day chosen to replace (place phase) or to swap (draw phase)
  selectAfterTake: null, // a day to select once a tile taken by drag-and-drop arrives
  hint: null, // {days, message} until the rack changes
  mapSeat: null, // whose journey the map shows after the game (null: the winner's, else one's own)
  clockOffset: 0, // milliseconds the server's clock is ahead of this device's
  muted: [], // seats whose chat this player does not want to see
};

/** The legal moves the player may make now, as the server listed them: none while a move is on its way. */
export function movesOf(state) {
  return state.game && !state.busy ? state.game.legal_moves || NO_MOVES : NO_MOVES;
}

export function isOver(game) {
  return game.phase === "over" || game.status === MatchStatus.OVER;
}

export function isSpectator(game) {
  return game.you === null || game.you === undefined;
}

/** Why a bot plays this player's own seat ("left" or "away"), or null: the server then offers it no moves. */
export function handedOver(game) {
  const mine = isSpectator(game) ? null : game.seats[game.you];
  if (!mine) return null;
  return mine.left ? "left" : mine.away ? "away" : null;
}

/** The seat whose journey the map shows once the game is over. */
export function mapSeatOf(state) {
  const game = state.game;
  return state.mapSeat ?? game.winner ?? game.you ?? 0;
}

// A day stays selected only while the player may still move.
function settle(state) {
  return state.selectedDay !== null && movesOf(state).length === 0 ? { ...state, selectedDay: null } : state;
}

/** A store: `state` (frozen), `update(patch or state => patch)`, `subscribe(listener)`. */
export function createTableState(initial = INITIAL) {
  let state = Object.freeze(settle({ ...initial }));
  const listeners = [];
  return {
    get state() {
      return state;
    },
    update(change) {
      const patch = typeof change === "function" ? change(state) : change;
      state = Object.freeze(settle({ ...state, ...patch }));
      for (const listener of listeners) listener(state);
    },
    subscribe(listener) {
      listeners.push(listener);
    },
  };
}

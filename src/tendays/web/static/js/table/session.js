// The live link to the server for one table: the state, error and hint messages go into the store.

import { api, playPath, remembered } from "../common.js";
import { TableConnection } from "../connection.js";
import { loadEdition } from "../edition.js";
import { sameData } from "./panel.js";
import { isSpectator } from "./store.js";

/**
 * @param {string} gameId
 * @param {ReturnType<import("./store.js").createStore>} store
 * @param {ReturnType<import("./actions.js").createActions>} actions
 * @param {{onRefused: Function}} handlers onRefused: the seat link was refused (it was forgotten here)
 */
export function createSession(gameId, store, actions, { onRefused }) {
  let connection = null;
  let loading = null; // the edition being loaded or loaded

  function loadEditionOf(editionId) {
    if (loading === editionId) return;
    loading = editionId;
    loadEdition(editionId, api).then(({ edition, geometry }) => store.update({ edition, geometry }), (error) => {
      loading = null; // the next state message tries again
      actions.showError(`The edition could not be loaded: ${error.message}`);
    });
  }

  function onState(message) {
    const state = store.state;
    const game = message.game;
    const patch = { game, version: message.version, busy: false, selectAfterTake: null };
    if (message.version !== state.version) Object.assign(patch, { selectedDay: null, error: null });
    // A hint is about the rack; it holds until the rack changes.
    if (!sameData(game.rack, state.game ? state.game.rack : null)) patch.hint = null;
    if (state.selectAfterTake !== null && game.phase === "place") patch.selectedDay = state.selectAfterTake;
    if (!isSpectator(game)) remembered.setSeat(gameId, state.token, { seat: game.you, edition: game.edition });
    store.update(patch);
    loadEditionOf(game.edition);
  }

  function onMessage(message) {
    if (message.type === "state") onState(message);
    else if (message.type === "error") {
      store.update({ busy: false, selectAfterTake: null });
      actions.showError(message.message || `The server refused: ${message.code}`);
    } else if (message.type === "hint") {
      store.update({ hint: { days: message.days || [], message: message.message || "" } });
    }
  }

  function onStatus(status) {
    store.update(status.state === "waiting" ? { link: status, busy: false } : { link: status });
    if (status.state !== "closed") return;
    actions.showError(status.reason || "The connection was closed.");
    if (status.code === 4403 && store.state.token) {
      // A seat link that is not (or no longer) valid here: forget it, and offer to join or watch instead.
      remembered.forget(gameId);
      history.replaceState(null, "", playPath(gameId));
      onRefused();
    }
  }

  return {
    /** Sit at the table with a seat token, or watch it (token null). */
    start(token) {
      if (connection) connection.close();
      store.update({ token, game: null, version: -1, busy: false, selectedDay: null, selectAfterTake: null, hint: null,
        mapSeat: null });
      connection = new TableConnection(gameId, token, { onMessage, onStatus });
      connection.connect();
    },

    /** Leave the table: the connection is closed and the table forgotten. */
    stop() {
      if (connection) connection.close();
      connection = null;
      store.update({ game: null, version: -1, link: { state: "idle" } });
    },

    /** Send a message; false when the connection is down. */
    send(message) {
      return Boolean(connection) && connection.send(message);
    },
  };
}

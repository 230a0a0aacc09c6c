// What the player can do at the table, as changes to the store and messages to the server.

import { t } from "../shared/i18n.js";
import { ClientKind } from "../shared/protocol.js";
import { remembered } from "../shared/storage.js";

const ERROR_SHOWN_MS = 12000;

/**
 * @param {ReturnType<import("./state.js").createTableState>} store
 * @param {(message: object) => boolean} send sends a message to the server; false when not connected
 */
export function createActions(store, send, gameId = "") {
  let errorTimer = null;

  const actions = {
    showError(message) {
      store.update({ error: message });
      clearTimeout(errorTimer);
      errorTimer = setTimeout(actions.hideError, ERROR_SHOWN_MS);
    },

    hideError() {
      store.update({ error: null });
    },

    /**
     * Send a move: the text of one of the server's legal moves. `selectAfter`: a day to select once the
     * tile taken by this move arrives (a pile's tile dragged onto a day).
     */
    move(text, { selectAfter = null } = {}) {
      const { game, busy, version } = store.state;
      if (!game || busy) return;
      if (!send({ type: ClientKind.MOVE, move: text, version })) {
        actions.showError(t("error.move_not_sent"));
        return;
      }
      store.update({ busy: true, selectAfterTake: selectAfter });
    },

    askHint() {
      if (!send({ type: ClientKind.HINT })) actions.showError(t("error.not_connected"));
    },

    /** Choose a day (to replace, or to swap), or none. */
    select(day) {
      store.update({ selectedDay: day });
    },

    /** Write a line in the table's chat; false when it could not be sent. */
    say(text) {
      if (send({ type: ClientKind.CHAT, text })) return true;
      actions.showError(t("error.chat_not_sent"));
      return false;
    },

    /** Hide (or show again) a player's chat lines, on this device. */
    toggleMute(seat) {
      const muted = store.state.muted.includes(seat) ? store.state.muted.filter((s) => s !== seat)
        : [...store.state.muted, seat];
      remembered.setMuted(gameId, muted);
      store.update({ muted });
    },

    /** Leave, take the seat back, ask to end the game, or offer / accept a rematch. */
    seat(kind) {
      if (!send({ type: kind })) actions.showError(t("error.not_connected"));
    },

    /** Show a seat's journey on the map (after the game). */
    showOnMap(seat) {
      store.update({ mapSeat: seat });
    },
  };
  return actions;
}

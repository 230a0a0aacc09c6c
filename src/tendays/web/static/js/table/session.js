// The live link to the server for one table: the state, error and hint messages go into the store.
// A state message carries only the log entries and chat lines this connection has not had (from
// `log_from` and `chat_from` on), and a chat message only new chat lines; they are appended to the ones
// the store holds.

import { TableConnection } from "../shared/connection.js";
import { loadEdition } from "../shared/edition.js";
import { playPath } from "../shared/format.js";
import { t } from "../shared/i18n.js";
import { colourBlindPalette } from "../shared/preferences.js";
import { ClientKind, RejectionCode, ServerKind } from "../shared/protocol.js";
import { api } from "../shared/rest.js";
import { remembered } from "../shared/storage.js";
import { sameData } from "./panel.js";
import { isSpectator } from "./state.js";

// The close code of a table whose session ended or whose seat link was revoked (the server's final word).
const SESSION_ENDED = 4401;

/**
 * @param {string} gameId
 * @param {ReturnType<import("./state.js").createTableState>} store
 * @param {ReturnType<import("./actions.js").createActions>} actions
 * @param {{onRefused: Function}} handlers onRefused: the seat link was refused (it was forgotten here)
 */
export function createSession(gameId, store, actions, { onRefused }) {
  let connection = null;
  let loading = null; // the edition being loaded or loaded
  let endedWords = null; // why the server is closing this table for an ended session, in the reader's words

  function loadEditionOf(editionId) {
    if (loading === editionId) return;
    loading = editionId;
    loadEdition(editionId, api, { colourBlind: colourBlindPalette() }).then(({ edition, geometry }) => {
      store.update({ edition, geometry });
    }, (error) => {
      loading = null; // the next state message tries again
      actions.showError(t("error.edition", { error: error.message }));
    });
  }

  /**
   * The whole list: the held one up to `from`, then the new entries; null when they do not fit (a gap:
   * ask for the whole table again). A chat line may come twice (in a chat message and in a table): the
   * later copy replaces the earlier.
   */
  function merged(held, from, entries) {
    if (from === 0) return entries || [];
    if (!held || held.length < from) return null;
    const kept = held.length === from ? held : held.slice(0, from);
    return entries && entries.length ? kept.concat(entries) : kept;
  }

  function onChat(message) {
    const game = store.state.game;
    if (!game) return;
    const chat = merged(game.chat, message.chat_from || 0, message.chat);
    if (chat === null) connection.send({ type: ClientKind.SYNC });
    else store.update({ game: { ...game, chat } });
  }

  function onState(message) {
    const state = store.state;
    const held = state.game;
    const log = merged(held && held.log, message.game.log_from || 0, message.game.log);
    const chat = merged(held && held.chat, message.game.chat_from || 0, message.game.chat);
    if (log === null || chat === null) {
      connection.send({ type: ClientKind.SYNC }); // this copy went wrong somewhere: ask for the whole table again
      return;
    }
    const game = { ...message.game, log, chat };
    // How far the server's clock is ahead of this one, so a deadline counts down right on any device.
    const clockOffset = game.clock && game.clock.now ? game.clock.now * 1000 - Date.now() : state.clockOffset;
    const patch = { game, version: message.version, busy: false, selectAfterTake: null, clockOffset };
    if (message.version !== state.version) Object.assign(patch, { selectedDay: null, error: null });
    // A hint is about the rack; it holds until the rack changes.
    if (!sameData(game.rack, state.game ? state.game.rack : null)) patch.hint = null;
    if (state.selectAfterTake !== null && game.phase === "place") patch.selectedDay = state.selectAfterTake;
    if (!isSpectator(game) && typeof state.token === "string") {  // an account's seat needs no token kept here
      remembered.setSeat(gameId, state.token, { seat: game.you, edition: game.edition });
    }
    store.update(patch);
    loadEditionOf(game.edition);
  }

  function onMessage(message) {
    if (message.type === ServerKind.STATE) onState(message);
    else if (message.type === ServerKind.CHAT) onChat(message);
    else if (message.type === ServerKind.ERROR) {
      if (message.code === RejectionCode.SIGNED_OUT || message.code === RejectionCode.LINK_REVOKED) endedWords = message.message;
      store.update({ busy: false, selectAfterTake: null });
      actions.showError(message.message || t("error.refused", { code: message.code }));
    } else if (message.type === ServerKind.HINT) {
      store.update({ hint: { days: message.days || [], message: message.message || "" } });
    } else if (message.type === ServerKind.SEAT) {
      // A seat in another game (a rematch): remember it on this device and go there.
      remembered.setSeat(message.id, message.token, { seat: message.seat, edition: store.state.game.edition });
      location.assign(message.url || `${playPath(message.id)}#token=${encodeURIComponent(message.token)}`);
    }
  }

  function onStatus(status) {
    store.update(status.state === "waiting" ? { link: status, busy: false } : { link: status });
    if (status.state !== "closed") return;
    if (status.code === 4404) {
      // No such game (any more): the join panel says so and offers the lobby, instead of an empty table.
      remembered.forget(gameId);
      history.replaceState(null, "", playPath(gameId));
      onRefused();
      return;
    }
    if (status.code === SESSION_ENDED) {
      // The session this table was signed in to ended (a sign-out, a new password), or the seat link was
      // revoked with it: say so, forget the link, and offer the table again (signed in, it opens the seat).
      remembered.forget(gameId);
      history.replaceState(null, "", playPath(gameId));
      onRefused();
      store.update({ link: { state: "ended" } }); // said beside the table until the page changes
      actions.showError(endedWords || t("error.session_ended"));
      return;
    }
    actions.showError(status.reason || t("error.closed"));
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

// The live link to the table: a WebSocket that reconnects with backoff after a drop and resumes from
// the state message the server sends on every connect. The seat token goes in the first message
// (hello), never in the address, which servers and proxies write to their logs.

import { currentLanguage } from "./i18n.js";
import { ClientKind, ServerKind } from "./protocol.js";

const PING_EVERY_MS = 25000;

/** In place of a seat token: the seat of the account this browser is signed in to (its session cookie). */
export const SIGNED_IN = Object.freeze({ account: true });
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10000;

export class TableConnection {
  /**
   * @param {string} gameId
   * @param {string|null|typeof SIGNED_IN} token the seat token (null: watch as a spectator; SIGNED_IN: the
   *   signed-in account's seat)
   * @param {{onMessage: Function, onStatus: Function}} handlers onStatus gets
   *   {state: "connecting"|"open"|"waiting"|"closed", retryIn?: ms, reason?: string}
   */
  constructor(gameId, token, { onMessage, onStatus }) {
    this.gameId = gameId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.attempt = 0;
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    // Back online, or back to the tab (a phone waking up): try again now rather than after the backoff.
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.reconnectNow();
    });
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    // The page's language, so that even a refusal before the hello (no such game) is in the reader's words.
    const lang = encodeURIComponent(currentLanguage());
    return `${scheme}//${location.host}/ws/games/${encodeURIComponent(this.gameId)}?lang=${lang}`;
  }

  connect() {
    clearTimeout(this.retryTimer);
    if (this.stopped) return;
    this.onStatus({ state: "connecting", attempt: this.attempt });
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch (error) {
      this.scheduleRetry(String(error));
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      // The reader's language: the table's sentences (log, verdicts, notices, refusals) come in it.
      const seat = this.token === SIGNED_IN ? { account: true } : { token: this.token };
      socket.send(JSON.stringify({ type: ClientKind.HELLO, ...seat, lang: currentLanguage() }));
      this.onStatus({ state: "open" });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: ClientKind.PING }), PING_EVERY_MS);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === ServerKind.STATE) this.attempt = 0; // a good connection: start the backoff afresh
      this.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      clearInterval(this.pingTimer);
      this.socket = null;
      // Close codes 4000-4999 are the server's final word (no such game, a seat token that is not valid).
      if (event.code >= 4000 && event.code < 5000) {
        this.stopped = true;
        this.onStatus({ state: "closed", code: event.code, reason: event.reason || "The server closed the connection." });
        return;
      }
      this.scheduleRetry(event.reason);
    });
  }

  scheduleRetry(reason) {
    if (this.stopped) return;
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.attempt += 1;
    this.onStatus({ state: "waiting", retryIn: delay, reason });
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.stopped || (this.socket && this.socket.readyState <= WebSocket.OPEN)) return;
    this.attempt = 0;
    this.connect();
  }

  get isOpen() {
    return Boolean(this.socket && this.socket.readyState === WebSocket.OPEN);
  }

  /** Send a message; returns false when the connection is down (the caller tells the player). */
  send(message) {
    if (!this.isOpen) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.socket) this.socket.close(1000, "leaving");
  }
}

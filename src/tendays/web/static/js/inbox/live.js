// The page's live line to its account's inbox (/ws/me): the server says hello with the unread count, then
// tells each new notification and each change of the count. A lost line is opened again, waiting longer each
// time; a line closed because the session ended (4401) stays closed.

import { currentLanguage } from "../shared/i18n.js";

const SIGNED_OUT = 4401;
const FIRST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 30000;

/** Follow the inbox: `onUnread(n)` for the hello and each new count, `onNotification(n)` for each new one,
 * `onSignedOut()` when the session ended. */
export function followInbox({ onUnread, onNotification, onSignedOut }) {
  let wait = FIRST_WAIT_MS;
  function open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/me?lang=${encodeURIComponent(currentLanguage())}`);
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "hello" || message.type === "unread") {
        wait = FIRST_WAIT_MS;
        onUnread(message.unread);
      } else if (message.type === "notification") {
        onNotification(message);
      }
    });
    socket.addEventListener("close", (event) => {
      if (event.code === SIGNED_OUT) {
        onSignedOut();
        return;
      }
      setTimeout(open, wait);
      wait = Math.min(wait * 2, LONGEST_WAIT_MS);
    });
  }
  open();
}

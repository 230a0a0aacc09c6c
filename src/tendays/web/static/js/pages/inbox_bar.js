// The inbox on every page of a signed-in person: the count in the header and its panel (inbox/panel.js), a
// short note for each notification that arrives while the page is open (inbox/toasts.js), and the browser's own
// notification when the page is in the background and the person turned them on (inbox/browser_notices.js).
// A notification about the page on screen (its game's table) shows no note. Each notification is also told to
// the page, as a "tendays:notification" event, and each new unread count as "tendays:unread" (the lobby reads
// its "your move" list again on either). Nobody signed in: nothing is shown and no line is opened.

import { showInBrowser } from "../inbox/browser_notices.js";
import { markRead } from "../inbox/items.js";
import { followInbox } from "../inbox/live.js";
import { inboxPanel } from "../inbox/panel.js";
import { toast } from "../inbox/toasts.js";
import { notificationText, notificationUrl } from "../inbox/words.js";
import { signedIn } from "../shared/account_session.js";
import { startLanguage } from "../shared/i18n.js";

await startLanguage();
const slot = document.getElementById("inbox");
const session = await signedIn();
if (session && slot) {
  const panel = inboxPanel();
  slot.replaceWith(panel.node);
  followInbox({
    onUnread(unread) {
      panel.setUnread(unread);
      document.dispatchEvent(new CustomEvent("tendays:unread", { detail: unread }));
    },
    onNotification(notification) {
      const text = notificationText(notification);
      const url = notificationUrl(notification);
      // no note about the page on screen (the table of that game); in the background, the browser's one still
      if (url !== location.pathname) toast(text, url, () => markRead([notification.id]));
      showInBrowser(text, url, notification.id);
      panel.refresh();
      document.dispatchEvent(new CustomEvent("tendays:notification", { detail: notification }));
    },
    onSignedOut: () => panel.node.remove(),
  });
}

// The whole inbox (/inbox): every notification kept, newest first, a page at a time ("Older"), each a link that
// marks it read; "Mark all read". New ones arrive through the header's live line (inbox_bar.js), which tells this
// page by a "tendays:notification" event: the list is read again.

import { markRead, notificationItem } from "../inbox/items.js";
import { signedIn } from "../shared/account_session.js";
import { markReady } from "../shared/dom.js";
import { startLanguage, t } from "../shared/i18n.js";
import { preferences } from "../shared/preferences.js";
import { api } from "../shared/rest.js";
import { whoBar } from "../shared/who.js";

const PAGE = 30;

await startLanguage();
document.title = t("inbox.page_title");
document.getElementById("preferences").replaceWith(preferences());
whoBar().then((bar) => document.getElementById("who").replaceWith(bar));

const items = document.getElementById("inbox-items");
const empty = document.getElementById("inbox-empty");
const older = document.getElementById("inbox-older");
const markAll = document.getElementById("inbox-mark-all");
const failed = document.getElementById("inbox-error");
let oldest = null; // the id of the oldest notification shown

async function show(more) {
  const before = more && oldest !== null ? `&before=${oldest}` : "";
  try {
    const inbox = await api(`/api/notifications?limit=${PAGE}${before}`);
    failed.textContent = "";
    const shown = inbox.notifications.map((n) => notificationItem(n, () => show(false)));
    if (more) items.append(...shown);
    else items.replaceChildren(...shown);
    if (inbox.notifications.length) oldest = inbox.notifications.at(-1).id;
    else if (!more) oldest = null;
    empty.hidden = items.children.length > 0;
    older.hidden = inbox.notifications.length < PAGE;
    markAll.disabled = inbox.unread === 0;
  } catch (error) {
    failed.textContent = error.message;
  }
}

if (await signedIn()) {
  markAll.addEventListener("click", async () => {
    if ((await markRead()) !== null) await show(false);
  });
  older.addEventListener("click", () => show(true));
  document.addEventListener("tendays:notification", () => show(false));
  await show(false);
} else {
  document.getElementById("inbox-signed-out").hidden = false;
}
markReady();

// One notification as a list item (the panel's and the inbox page's): its sentence as a link to what it is
// about, when it came, and whether it is read. Following the link marks it read first.

import { el } from "../shared/dom.js";
import { timeAgo } from "../shared/format.js";
import { t } from "../shared/i18n.js";
import { api } from "../shared/rest.js";
import { notificationText, notificationUrl } from "./words.js";

/** Mark notifications read: `ids`, or every one when null. The new unread count, or null if that failed. */
export async function markRead(ids = null) {
  try {
    const answer = await api("/api/notifications/read", { method: "POST", body: ids ? { ids } : {} });
    return answer.unread;
  } catch {
    return null;
  }
}

/** A list item for `notification`; `read()` is told once it is marked read. */
export function notificationItem(notification, read = () => {}) {
  const text = notificationText(notification);
  const url = notificationUrl(notification);
  const item = el("li", { class: notification.read ? "inbox-item read" : "inbox-item unread" });
  const open = async (event) => {
    if (notification.read) return;
    event.preventDefault();
    const unread = await markRead([notification.id]);
    if (unread !== null) read(unread);
    if (url) location.assign(url);
  };
  item.append(url ? el("a", { href: url, onclick: open }, text) : el("span", {}, text));
  item.append(" ", el("span", { class: "muted small" }, timeAgo(notification.created_at)));
  if (!notification.read) item.append(" ", el("span", { class: "inbox-new small" }, t("inbox.new")));
  return item;
}

// The header's inbox: a button with the unread count (read out politely when it changes) that opens a panel of
// the newest notifications, each a link that marks it read; "Mark all read"; a link to the whole inbox; and the
// toggle for the browser's own notifications. Escape or a click elsewhere closes the panel.

import { el, svg } from "../shared/dom.js";
import { t, tn } from "../shared/i18n.js";
import { api } from "../shared/rest.js";
import { choose, supported, turnedOn } from "./browser_notices.js";
import { markRead, notificationItem } from "./items.js";

const SHOWN = 10; // the newest notifications the panel lists

/** The inbox's part of the header: {node, setUnread(n)}. */
export function inboxPanel() {
  const count = el("span", { class: "inbox-count", hidden: true });
  const said = el("span", { class: "visually-hidden", "aria-live": "polite" });
  const button = el("button", { type: "button", class: "inbox-button", "aria-expanded": "false",
    "aria-controls": "inbox-panel" }, bell(), t("inbox.button"), count);
  const items = el("ul", { class: "inbox-list" });
  const empty = el("p", { class: "muted", hidden: true }, t("inbox.empty"));
  const failed = el("p", { class: "form-error", role: "alert" });
  const allRead = el("button", { type: "button", onclick: async () => {
    const unread = await markRead();
    if (unread !== null) {
      setUnread(unread);
      await fill();
    }
  } }, t("inbox.mark_all"));
  const browser = browserToggle();
  const panel = el("section", { id: "inbox-panel", class: "inbox-panel", hidden: true,
    "aria-labelledby": "inbox-panel-title" },
  el("h2", { id: "inbox-panel-title" }, t("inbox.title")), failed, items, empty,
  el("div", { class: "inbox-actions" }, allRead, el("a", { href: "/inbox" }, t("inbox.all"))), browser);
  const node = el("div", { class: "inbox" }, button, said, panel);
  function setUnread(unread) {
    count.textContent = String(unread);
    count.hidden = unread === 0;
    said.textContent = tn("inbox.unread", unread);
    allRead.disabled = unread === 0;
  }

  async function fill() {
    try {
      const inbox = await api(`/api/notifications?limit=${SHOWN}`);
      failed.textContent = "";
      items.replaceChildren(...inbox.notifications.map((n) => notificationItem(n, setUnread)));
      empty.hidden = inbox.notifications.length > 0;
      setUnread(inbox.unread);
    } catch (error) {
      failed.textContent = error.message;
    }
  }

  // Under the button, its right edge at the button's, but never past either side of the window (the button
  // may sit at the left of a phone's wrapped top bar).
  function place() {
    const margin = 12;
    const width = Math.min(panel.offsetWidth, window.innerWidth - 2 * margin);
    const wanted = button.getBoundingClientRect().right - width;
    const left = Math.max(margin, Math.min(wanted, window.innerWidth - margin - width));
    panel.style.left = `${left - node.getBoundingClientRect().left}px`;
  }

  function close(focusButton) {
    if (panel.hidden) return;
    panel.hidden = true;
    button.setAttribute("aria-expanded", "false");
    if (focusButton) button.focus();
  }

  button.addEventListener("click", async () => {
    if (!panel.hidden) {
      close(false);
      return;
    }
    panel.hidden = false;
    button.setAttribute("aria-expanded", "true");
    place();
    await fill();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close(true); // wherever the focus is (a disabled button lets it go)
  });
  document.addEventListener("click", (event) => {
    if (!node.contains(event.target)) close(false);
  });
  setUnread(0);
  return { node, setUnread, refresh: () => (panel.hidden ? null : fill()) };
}

/** A bell drawn in the text's colour (no emoji font needed). */
function bell() {
  return svg("svg", { class: "inbox-bell", viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true",
    focusable: "false" },
  svg("path", { fill: "currentColor", d: "M8 1.5a1 1 0 0 1 1 1v.6a4.5 4.5 0 0 1 3.5 4.4v3l1.3 1.8a.5.5 0 0 "
    + "1-.4.8H2.6a.5.5 0 0 1-.4-.8L3.5 10.5v-3A4.5 4.5 0 0 1 7 3.1v-.6a1 1 0 0 1 1-1zM6.3 14h3.4a1.7 1.7 0 0 "
    + "1-3.4 0z" }));
}

/** "Notify me in this browser": asks the browser only when clicked. */
function browserToggle() {
  const box = el("input", { type: "checkbox", checked: turnedOn() });
  const note = el("p", { class: "muted small", role: "status" });
  box.addEventListener("change", async () => {
    note.textContent = await choose(box.checked);
    box.checked = turnedOn();
  });
  if (!supported()) {
    box.disabled = true;
    note.textContent = t("inbox.browser_unsupported");
  }
  return el("div", { class: "inbox-browser" },
    el("label", { class: "check" }, box, el("span", {}, t("inbox.browser"))), note);
}

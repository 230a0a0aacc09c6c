// Short notes at the corner of the page for a notification that arrives while it is open: the sentence, a link
// to open it, and a button to close the note. A note goes by itself after a while, unless it has the focus.

import { el } from "../shared/dom.js";
import { t } from "../shared/i18n.js";

const SHOWN_MS = 10000;
let shelf = null;

function theShelf() {
  if (shelf === null) {
    shelf = el("div", { class: "inbox-toasts", role: "status", "aria-live": "polite" });
    document.body.append(shelf);
  }
  return shelf;
}

/** Show a note saying `text`, with an Open link to `url` (if any); `opened()` is told when it is followed. */
export function toast(text, url, opened) {
  const note = el("div", { class: "inbox-toast" }, el("span", {}, text));
  const open = async (event) => {
    event.preventDefault();
    await opened();
    location.assign(url);
  };
  // Open and close side by side, kept together when a long sentence makes the note wrap
  const actions = el("span", { class: "inbox-toast-actions" });
  if (url) actions.append(el("a", { class: "button primary", href: url, onclick: open }, t("inbox.open")));
  actions.append(el("button", { type: "button", class: "quiet", onclick: () => note.remove(),
    "aria-label": t("inbox.dismiss") }, "×"));
  note.append(actions);
  theShelf().append(note);
  const leave = () => {
    if (note.contains(document.activeElement)) setTimeout(leave, SHOWN_MS);
    else note.remove();
  };
  setTimeout(leave, SHOWN_MS);
}

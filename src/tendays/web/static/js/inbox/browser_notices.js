// The browser's own notifications (the Notification API), shown only while a page of the site is open in the
// background, and only once the person turned them on here: permission is asked when the toggle is clicked,
// never on load. The choice is remembered on this device.

import { t } from "../shared/i18n.js";

const KEY = "tendays.notify";

function remembered() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

function remember(on) {
  try {
    if (on) localStorage.setItem(KEY, "on");
    else localStorage.removeItem(KEY);
  } catch {
    // private browsing without storage: the choice lasts for this page only
  }
}

/** Whether this browser can show notifications at all. */
export function supported() {
  return typeof Notification !== "undefined";
}

/** Whether the person turned them on here and the browser allows them. */
export function turnedOn() {
  return supported() && remembered() && Notification.permission === "granted";
}

/** Turn them on (asking the browser, which may ask the person) or off; the words to show, or "". */
export async function choose(on) {
  if (!on) {
    remember(false);
    return "";
  }
  if (!supported()) return t("inbox.browser_unsupported");
  const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  remember(answer === "granted");
  return answer === "granted" ? "" : t("inbox.browser_denied");
}

/** Show `text` as the browser's notification if the page is in the background and they are on. */
export function showInBrowser(text, url, tag) {
  if (document.visibilityState !== "hidden" || !turnedOn()) return;
  const shown = new Notification(t("brand"), { body: text, tag: String(tag) });
  shown.addEventListener("click", () => {
    window.focus();
    if (url) location.assign(url);
    shown.close();
  });
}

// Who is signed in on this browser, asked of the server once per page (the session cookie is HttpOnly: no
// script reads it). A changing request of a signed-in browser carries the session's CSRF token, which the
// server gave at sign-in and repeats at GET /api/session.

import { currentLanguage } from "./i18n.js";

let known = null; // the promise of {name, csrf}, or of null when nobody is signed in

/** {name, csrf} of the signed-in account, or null. */
export function signedIn() {
  if (known === null) {
    known = fetch("/api/session", { headers: { "Accept-Language": currentLanguage() } })
      .then((response) => (response.status === 200 ? response.json() : null)) // 204: nobody is signed in
      .catch(() => null);
  }
  return known;
}

/** What the server answered at sign-up or sign-in ({name, csrf}), or null after signing out. */
export function rememberSession(session) {
  known = Promise.resolve(session);
}

/** Whether this browser signed in or out (or in as someone else) in another tab since the page asked: the
 * server then refuses the page's changes (403), and only reloading the page mends it. */
export async function sessionChanged() {
  const known = await signedIn();
  let now;
  try {
    const response = await fetch("/api/session", { headers: { "Accept-Language": currentLanguage() } });
    if (response.status !== 200 && response.status !== 204) return false;
    now = response.status === 200 ? await response.json() : null;
  } catch {
    return false;
  }
  return (known ? known.csrf : null) !== (now ? now.csrf : null);
}

/** The header a changing request of this browser carries: the session's CSRF token, if one is signed in. */
export async function csrfHeaders() {
  const session = await signedIn();
  return session ? { "X-CSRF-Token": session.csrf } : {};
}

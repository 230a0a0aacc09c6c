// Who is signed in, for the top bar: the name, links to the account, the profile and the players one follows,
// and a sign-out button; or, for an anonymous visitor, a link to sign in or up (an account is never needed to play).

import { rememberSession, signedIn } from "./account_session.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./rest.js";

/** Sign out here, then show the page again as an anonymous visitor. */
async function signOut(button) {
  button.disabled = true;
  try {
    await api("/api/session", { method: "DELETE" });
  } catch {
    // already signed out (401), or the server is away: the page shown again says which
  }
  rememberSession(null);
  location.reload();
}

/** The top bar's account part, once the server said who is signed in. */
export async function whoBar() {
  const session = await signedIn();
  const nav = el("nav", { class: "who", "aria-label": t("account.bar") });
  if (!session) {
    nav.append(el("a", { href: "/account" }, t("account.sign_in_or_up")));
    return nav;
  }
  const out = el("button", { type: "button", onclick: (event) => signOut(event.currentTarget) }, t("account.sign_out"));
  nav.append(el("span", {}, t("account.signed_in_as", { name: session.name })),
    el("a", { href: "/account" }, t("account.link")),
    el("a", { href: `/players/${encodeURIComponent(session.name)}` }, t("account.profile")),
    el("a", { href: "/following" }, t("follow.link")), out);
  return nav;
}

// The account page: sign in or sign up when nobody is signed in; otherwise the account's name, a new
// password, signing out (here or everywhere), downloading one's data and deleting the account. Every
// refusal is the server's sentence, in the reader's language. `?next=/play/...` returns there after signing in.

import { rememberSession, signedIn } from "../shared/account_session.js";
import { markReady } from "../shared/dom.js";
import { sentence } from "../shared/format.js";
import { startLanguage, t } from "../shared/i18n.js";
import { preferences } from "../shared/preferences.js";
import { api } from "../shared/rest.js";
import { whoBar } from "../shared/who.js";

await startLanguage();
document.title = t("account.page_title");
document.getElementById("preferences").replaceWith(preferences());

const $ = (id) => document.getElementById(id);

/** Where to go once signed in: a path of this site given as ?next=, else the lobby. */
function nextPage() {
  const next = new URLSearchParams(location.search).get("next") || "/";
  return next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

function say(id, error) {
  $(id).textContent = error ? sentence(error.message || String(error)) : "";
}

// A sentence for the next page of this tab to show (after signing out everywhere, or deleting the account).
const NOTICE_KEY = "tendays.account_notice";

function leaveWith(notice, path) {
  try {
    sessionStorage.setItem(NOTICE_KEY, notice);
  } catch {
    // no storage: the page still changes, without the sentence
  }
  location.assign(path);
}

function showNotice() {
  try {
    const notice = sessionStorage.getItem(NOTICE_KEY);
    sessionStorage.removeItem(NOTICE_KEY);
    $("account-notice").textContent = notice || "";
  } catch {
    // no storage: nothing was left to say
  }
}

/** Using one form takes away what another said: only the form in hand has an error shown (and the notice goes). */
function clearOthersOnUse() {
  for (const form of document.querySelectorAll("main form")) {
    const clear = () => {
      for (const other of document.querySelectorAll("main form")) {
        if (other !== form) for (const error of other.querySelectorAll(".form-error")) error.textContent = "";
      }
      $("account-notice").textContent = "";
      $("account-status").textContent = "";
    };
    form.addEventListener("input", clear);
    form.addEventListener("submit", clear);
  }
}

/** The longest name an account may have (the server's rule): a longer one is named as such, never cut short. */
const MAX_NAME = 32;

function nameTooLong(input) {
  const count = [...input.value.trim().split(/\s+/).join(" ")].length;
  return count > MAX_NAME ? t("account.name_too_long", { most: MAX_NAME, count }) : null;
}

/** Whether every field the form needs is filled in; if not, the first empty one is named under the form and
 * focused, before anything is sent or asked (a password of spaces is still a password: only names are trimmed). */
function filled(form, errorId) {
  const empty = [...form.querySelectorAll("input[required]:not([type=checkbox])")]
    .find((input) => (input.type === "password" ? input.value === "" : !input.value.trim()));
  if (!empty) return true;
  say(errorId, new Error(t("account.fill_in", { field: empty.closest("label").querySelector("span").textContent })));
  empty.focus();
  return false;
}

/** Run a form's request with its button disabled; the error goes under the form. */
async function submitting(form, errorId, work) {
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  say(errorId, null);
  try {
    await work();
  } catch (error) {
    say(errorId, error);
    const taken = error.status === 409; // the name is the field to change, not the password
    const field = form.querySelector(taken ? "input[name=name]" : "input[type=password]");
    if (field) field.focus();
  } finally {
    button.disabled = false;
  }
}

async function enter(path, form, errorId, nameId, passwordId) {
  if (!filled(form, errorId)) return;
  const tooLong = nameId === "sign-up-name" && nameTooLong($(nameId));
  if (tooLong) {
    say(errorId, new Error(tooLong));
    $(nameId).focus();
    return;
  }
  await submitting(form, errorId, async () => {
    const session = await api(path, { method: "POST", body: { name: $(nameId).value, password: $(passwordId).value } });
    rememberSession(session);
    location.assign(nextPage());
  });
}

function showSignedOut() {
  $("signed-out").hidden = false;
  $("sign-in-form").addEventListener("submit", (event) => {
    event.preventDefault();
    enter("/api/session", event.currentTarget, "sign-in-error", "sign-in-name", "sign-in-password");
  });
  $("sign-up-form").addEventListener("submit", (event) => {
    event.preventDefault();
    enter("/api/accounts", event.currentTarget, "sign-up-error", "sign-up-name", "sign-up-password");
  });
  $("sign-up-name").addEventListener("input", (event) => { // said at once, a pasted name too
    const tooLong = nameTooLong(event.currentTarget);
    event.currentTarget.setAttribute("aria-invalid", String(Boolean(tooLong)));
    say("sign-up-error", tooLong ? new Error(tooLong) : null);
  });
  (location.hash === "#sign-up" ? $("sign-up-name") : $("sign-in-name")).focus();
}

function showSignedIn(session) {
  $("signed-in").hidden = false;
  $("account-who").textContent = t("account.signed_in_as", { name: session.name });
  $("profile-link").href = `/players/${encodeURIComponent(session.name)}`;
  for (const hidden of document.querySelectorAll("input[name=username]")) hidden.value = session.name;
  $("sign-out").addEventListener("click", async () => {
    await api("/api/session", { method: "DELETE" }).catch(() => null);
    rememberSession(null);
    location.assign("/");
  });
  $("sign-out-everywhere").addEventListener("click", async (event) => {
    const button = event.currentTarget; // null once the click is handled: kept for after the answer
    button.disabled = true;
    try {
      await api("/api/account/sessions", { method: "DELETE" });
      rememberSession(null);
      leaveWith(t("account.signed_out_everywhere"), "/account");
    } catch (error) {
      say("account-status", error);
      button.disabled = false;
    }
  });
  $("password-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (!filled(form, "password-error")) return;
    submitting(form, "password-error", async () => {
      await api("/api/account/password", { method: "POST",
        body: { password: $("current-password").value, new_password: $("new-password").value } });
      form.reset();
      $("account-status").textContent = t("account.password_changed");
    });
  });
  $("delete-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (!filled(form, "delete-error")) return;
    if (!$("delete-sure").checked) {
      say("delete-error", new Error(t("account.delete_tick")));
      $("delete-sure").focus();
      return;
    }
    if (!window.confirm(t("account.delete_confirm", { name: session.name }))) return;
    submitting(form, "delete-error", async () => {
      await api("/api/account", { method: "DELETE", body: { password: $("delete-password").value } });
      rememberSession(null);
      leaveWith(t("account.deleted", { name: session.name }), "/account");
    });
  });
}

const session = await signedIn();
$("who").replaceWith(await whoBar());
if (session) showSignedIn(session);
else showSignedOut();
showNotice();
clearOthersOnUse();
markReady();

// The signed-in person's API tokens (/account/tokens): make one (a name and its scopes), see it once in a
// read-only field with a Copy button, list them (never their values) and revoke one. The server keeps only a
// token's hash, so a token not copied when made is gone for good; the page keeps it nowhere either.

import { signedIn } from "../shared/account_session.js";
import { el, markReady } from "../shared/dom.js";
import { sentence, timeAgo } from "../shared/format.js";
import { dateText, startLanguage, t } from "../shared/i18n.js";
import { preferences } from "../shared/preferences.js";
import { api, ApiError } from "../shared/rest.js";
import { whoBar } from "../shared/who.js";

const $ = (id) => document.getElementById(id);

await startLanguage();
document.title = t("tokens.page_title");
$("preferences").replaceWith(preferences());
whoBar().then((bar) => $("who").replaceWith(bar));

function errorText(error) {
  return sentence(error instanceof ApiError ? error.message : String(error));
}

/** The last cell of a token's row: when it was revoked, or the button that revokes it. */
function stateCell(token) {
  if (token.revoked !== null) {
    return el("td", { class: "token-revoked" }, t("tokens.revoked_on", { date: dateText(token.revoked * 1000) }));
  }
  return el("td", {}, el("button", { type: "button", class: "danger", onclick: () => revoke(token),
    "aria-label": t("tokens.revoke_label", { name: token.name }) }, t("tokens.revoke")));
}

function row(token) {
  return el("tr", { dataset: { id: String(token.id) }, class: token.revoked === null ? "" : "token-gone" },
    el("td", { class: "token-name" }, token.name,
      el("span", { class: "muted small token-date" }, t("tokens.made_on", { date: dateText(token.created * 1000) }))),
    el("td", {}, ...token.scopes.flatMap((scope, i) => (i ? [" ", el("code", {}, scope)] : [el("code", {}, scope)]))),
    el("td", {}, token.last_used === null ? t("tokens.never") : timeAgo(token.last_used)),
    stateCell(token));
}

async function load() {
  let tokens;
  try {
    tokens = (await api("/api/tokens")).tokens;
  } catch (error) {
    $("tokens-status").textContent = errorText(error);
    return;
  }
  $("tokens").replaceChildren(...tokens.map(row));
  $("tokens-table").hidden = tokens.length === 0;
  $("tokens-empty").hidden = tokens.length > 0;
}

async function revoke(token) {
  if (!window.confirm(t("tokens.revoke_confirm", { name: token.name }))) return;
  try {
    await api(`/api/tokens/${token.id}`, { method: "DELETE" });
    $("tokens-status").textContent = t("tokens.revoked", { name: token.name });
  } catch (error) {
    $("tokens-status").textContent = errorText(error);
  }
  await load();
}

/** Show the new token, this once, selected in its field. */
function showMade(made) {
  $("token-value").value = made.token;
  $("token-copied").textContent = "";
  $("token-made").hidden = false;
  $("token-value").focus();
  $("token-value").select();
}

async function make(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const scopes = [...form.querySelectorAll("input[name=scope]:checked")].map((box) => box.value);
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  $("token-error").textContent = "";
  try {
    const made = await api("/api/tokens", { method: "POST", body: { name: $("token-name").value, scopes } });
    form.reset();
    showMade(made);
    $("tokens-status").textContent = "";
    await load();
  } catch (error) {
    $("token-error").textContent = errorText(error);
  } finally {
    button.disabled = false;
  }
}

async function copy() {
  const field = $("token-value");
  try {
    await navigator.clipboard.writeText(field.value);
    $("token-copied").textContent = t("tokens.copied");
  } catch {
    field.focus();
    field.select(); // the browser would not let the page write the clipboard: the person copies it
    $("token-copied").textContent = t("tokens.copy_by_hand");
  }
}

if (await signedIn()) {
  $("tokens-signed-in").hidden = false;
  $("tokens-listed").hidden = false;
  $("token-form").addEventListener("submit", make);
  $("token-copy").addEventListener("click", copy);
  await load();
} else {
  $("tokens-signed-out").hidden = false;
}
markReady();

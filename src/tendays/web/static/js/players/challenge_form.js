// A signed-in visitor's Challenge button on a profile: a dialog asks for the edition, the clock and whether the
// game is rated, sends the challenge, and opens its page (/challenge/{id}), where the answer arrives. On one's own
// profile the same button makes an open challenge link, which the first signed-in taker accepts. Nothing shows to
// an anonymous visitor.

import { el } from "../shared/dom.js";
import { sentence } from "../shared/format.js";
import { currentLanguage, t } from "../shared/i18n.js";
import { api, ApiError } from "../shared/rest.js";
import { editionName } from "./words.js";

const $ = (id) => document.getElementById(id);

let challenged = null; // the name of the profile's player; null on one's own profile (an open link)
let wired = false;

/** The clock chosen in the dialog ("kind:per_move:bank", or "" for none) as the API takes it. */
function chosenClock() {
  const value = $("challenge-clock").value;
  if (!value) return null;
  const [kind, perMove, bank] = value.split(":");
  return { kind, per_move: Number(perMove), bank: Number(bank) };
}

async function send(event) {
  event.preventDefault(); // the dialog stays open until the server has the challenge
  const button = $("challenge-send");
  button.disabled = true;
  $("challenge-error").textContent = "";
  try {
    const made = await api("/api/challenges", { method: "POST", body: {
      to: challenged, edition: $("challenge-edition").value, clock: chosenClock(), rated: $("challenge-rated").checked,
    } });
    location.assign(made.url);
  } catch (error) {
    $("challenge-error").textContent = sentence(error instanceof ApiError ? error.message : String(error));
    button.disabled = false;
  }
}

function open() {
  $("challenge-title").textContent = challenged === null ? t("challenge.open_title")
    : t("challenge.dialog_title", { name: challenged });
  $("challenge-error").textContent = "";
  $("challenge-send").disabled = false;
  $("challenge-dialog").showModal();
}

/** Offer the signed-in visitor (`session`, or null) to challenge the player of `profile` (or, on their own
 * profile, to make an open link), in one of `editions`. */
export function showChallenge(profile, session, editions) {
  const part = $("challenge");
  if (!session || profile.status !== "active") {
    part.hidden = true;
    return;
  }
  challenged = session.name === profile.name ? null : profile.name;
  $("challenge-open").textContent = t(challenged === null ? "challenge.open_link" : "challenge.challenge");
  const select = $("challenge-edition");
  if (select.options.length === 0) {
    select.replaceChildren(...editions.map((e) => el("option", { value: e.id }, editionName(editions, e.id))));
    // as the lobby offers it: the edition of the reader's language first
    const chosen = editions.find((e) => e.language === currentLanguage()) || editions.find((e) => e.default);
    if (chosen) select.value = chosen.id;
  }
  if (!wired) {
    wired = true;
    $("challenge-open").addEventListener("click", open);
    $("challenge-form").addEventListener("submit", send);
    $("challenge-close").addEventListener("click", () => $("challenge-dialog").close());
  }
  part.hidden = false;
}

// "Create a tournament" on /tournaments: a signed-in person names the event and chooses its kind, edition,
// clock, length (minutes of an arena, rounds and table size of a Swiss), start, whether it is rated, the
// ratings that may join and the ladder's bots that play too. The server decides what is allowed: its
// refusal is shown in words beside the button, and the new event's page opens once it is made.

import { signedIn } from "../shared/account_session.js";
import { el } from "../shared/dom.js";
import { sentence } from "../shared/format.js";
import { levelWord, t } from "../shared/i18n.js";
import { TournamentKind } from "../shared/protocol.js";
import { api, ApiError } from "../shared/rest.js";

const $ = (id) => document.getElementById(id);
const START_AFTER_MS = 10 * 60 * 1000;

function paceOf(value) {
  const [kind, perMove, bank] = value.split(":");
  return { kind, per_move: Number(perMove), bank: Number(bank) };
}

/** A number field's value, null when empty, NaN when what was typed is no number. */
function numberOf(input) {
  if (input.validity.badInput) return NaN;
  const text = input.value.trim();
  return text === "" ? null : Number(text);
}

/** Show the fields of the chosen kind: minutes for an arena; rounds and table size for a Swiss. */
function showKind(form) {
  const swiss = form.elements.kind.value === TournamentKind.SWISS;
  $("minutes-field").hidden = swiss;
  $("rounds-field").hidden = !swiss;
  $("table-field").hidden = !swiss;
  $("kind-note").textContent = t(swiss ? "tournaments.swiss_note" : "tournaments.arena_note");
}

/** Offer a start ten minutes from now (in the reader's local time), leaving time to join. */
function fillStart(input) {
  const start = new Date(Date.now() + START_AFTER_MS);
  start.setSeconds(0, 0);
  const pad = (n) => String(n).padStart(2, "0");
  input.value = `${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}T`
    + `${pad(start.getHours())}:${pad(start.getMinutes())}`;
}

/** The request's body from the form, or a sentence saying which field to mend (with the field to focus). */
function bodyOf(form) {
  const name = form.elements.name.value.trim();
  if (!name) return { wrong: form.elements.name, words: t("tournaments.name_needed") };
  const kind = form.elements.kind.value;
  const body = { name, kind, edition: form.elements.edition.value, clock: paceOf(form.elements.pace.value),
    rated: form.elements.rated.checked, options: {} };
  const length = kind === TournamentKind.ARENA ? form.elements.minutes : form.elements.rounds;
  const count = numberOf(length);
  if (count === null || !Number.isInteger(count)) return { wrong: length, words: t("tournaments.whole_number") };
  body[kind === TournamentKind.ARENA ? "minutes" : "rounds"] = count;
  if (kind === TournamentKind.SWISS) body.table_size = Number(form.elements.table_size.value);
  const starts = form.elements.starts_at.value;
  if (starts) {
    const ms = new Date(starts).getTime(); // a datetime-local field holds the reader's local time
    if (Number.isNaN(ms)) return { wrong: form.elements.starts_at, words: t("tournaments.start_bad") };
    body.starts_at = Math.round(ms / 1000);
  }
  for (const limit of ["rating_min", "rating_max"]) {
    const value = numberOf(form.elements[limit]);
    if (Number.isNaN(value)) return { wrong: form.elements[limit], words: t("pair.rating_bad") };
    if (value !== null) body[limit] = value;
  }
  body.bots = [...form.querySelectorAll("input[name=bot]:checked")].map((box) => box.value);
  return { body };
}

/** Wire the form for a signed-in person (else offer to sign in), with the server's editions and bots. */
export async function installForm(editions) {
  const form = $("create-form");
  const session = await signedIn();
  $("create-signed-out").hidden = Boolean(session);
  form.hidden = !session;
  if (!session) return;
  $("t-edition").replaceChildren(...editions.map((e) => el("option", { value: e.id }, e.name)));
  const fallback = editions.find((e) => e.default) || editions[0];
  if (fallback) $("t-edition").value = fallback.id;
  const bots = await api("/api/bots").catch(() => ({ levels: [] }));
  $("t-bots").replaceChildren(...bots.levels.map((level) => el("label", { class: "choice" },
    el("input", { type: "checkbox", name: "bot", value: level.name }), " ", levelWord(level.name))));
  fillStart(form.elements.starts_at);
  for (const radio of form.elements.kind) radio.addEventListener("change", () => showKind(form));
  showKind(form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = $("create-error");
    for (const field of form.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
    const { body, wrong, words } = bodyOf(form);
    if (!body) {
      error.textContent = words;
      wrong.setAttribute("aria-invalid", "true");
      wrong.focus();
      return;
    }
    const button = $("create-button");
    button.disabled = true;
    error.textContent = "";
    try {
      const made = await api("/api/tournaments", { method: "POST", body });
      location.assign(`/tournaments/${encodeURIComponent(made.id)}`);
    } catch (refused) {
      error.textContent = sentence(refused instanceof ApiError ? refused.message : String(refused));
      button.disabled = false;
    }
  });
}

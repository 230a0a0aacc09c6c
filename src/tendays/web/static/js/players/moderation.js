// A signed-in visitor's moderation on a profile: report the player to the operator (a reason, perhaps one of
// their recent games, a few words, in a dialog) and block or unblock them. Nothing shows to an anonymous
// visitor, nor on one's own profile.

import { el } from "../shared/dom.js";
import { sentence } from "../shared/format.js";
import { dateText, t } from "../shared/i18n.js";
import { api, ApiError } from "../shared/rest.js";
import { editionName } from "./words.js";

const $ = (id) => document.getElementById(id);

let player = null; // the profile shown: {name, games}
let editions = [];
let reasons = null; // the reasons the server takes, asked once
let blocked = false;

function errorText(error) {
  return sentence(error instanceof ApiError ? error.message : String(error));
}

function showBlocked() {
  $("block-toggle").textContent = t(blocked ? "moderation.unblock" : "moderation.block");
}

async function toggleBlock() {
  const button = $("block-toggle");
  button.disabled = true;
  try {
    const answer = await api(`/api/blocks/${encodeURIComponent(player.name)}`, { method: blocked ? "DELETE" : "PUT" });
    blocked = answer.blocked;
    $("moderation-said").textContent = t(blocked ? "moderation.blocked" : "moderation.unblocked", { name: answer.name });
  } catch (error) {
    $("moderation-said").textContent = errorText(error);
  } finally {
    button.disabled = false;
    showBlocked();
  }
}

/** A game of the profile as the dialog offers it: when, which edition, against whom. */
function gameLabel(game) {
  const when = dateText(game.created);
  const others = game.others.map((o) => o.name || "—").join(", ");
  return t("moderation.game_option", { date: when, edition: editionName(editions, game.edition), others });
}

async function openReport() {
  if (reasons === null) {
    try {
      reasons = await api("/api/report-reasons");
    } catch (error) {
      $("moderation-said").textContent = errorText(error);
      return;
    }
  }
  $("report-title").textContent = t("moderation.report_title", { name: player.name });
  $("report-reason").replaceChildren(...reasons.map((r) => el("option", { value: r }, t(`moderation.reason.${r}`))));
  $("report-game").replaceChildren(el("option", { value: "" }, t("moderation.no_game")),
    ...player.games.map((g) => el("option", { value: g.id }, gameLabel(g))));
  $("report-text").value = "";
  $("report-error").textContent = "";
  $("report-dialog").showModal();
}

async function sendReport(event) {
  event.preventDefault(); // the dialog closes once the server has the report, not before
  const send = $("report-send");
  send.disabled = true;
  const game = $("report-game").value;
  try {
    const filed = await api("/api/reports", { method: "POST", body: {
      player: player.name, reason: $("report-reason").value, game: game || null, text: $("report-text").value } });
    $("report-dialog").close();
    $("moderation-said").textContent = t(filed.new ? "moderation.sent" : "moderation.already");
  } catch (error) {
    $("report-error").textContent = errorText(error);
  } finally {
    send.disabled = false;
  }
}

let wired = false;

/** Offer the signed-in visitor (`session`, or null) the report and block buttons for `profile`. */
export async function showModeration(profile, session, knownEditions) {
  player = profile;
  editions = knownEditions;
  const part = $("moderation");
  if (!session || session.name === profile.name) {
    part.hidden = true;
    return;
  }
  if (!wired) {
    wired = true;
    $("block-toggle").addEventListener("click", toggleBlock);
    $("report-open").addEventListener("click", openReport);
    $("report-form").addEventListener("submit", sendReport);
    $("report-cancel").addEventListener("click", () => $("report-dialog").close());
  }
  try {
    const mine = await api("/api/blocks");
    blocked = mine.players.some((p) => p.name === profile.name);
  } catch {
    blocked = false; // the button then says "Block"; the server answers the click in words
  }
  showBlocked();
  part.hidden = false;
}

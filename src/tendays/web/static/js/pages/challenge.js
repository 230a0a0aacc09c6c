// One challenge's page (/challenge/{id}): who challenges whom, to what game, and where it stands. The challenged
// player accepts or declines it (with a reason the challenger reads), the challenger cancels it, and an open link is
// accepted by its first signed-in taker. While it is open the page asks again every two seconds, so the challenger
// is sent to the game as soon as it is accepted (the seat opens signed in: no token is needed).

import { editionName } from "../players/words.js";
import { signedIn } from "../shared/account_session.js";
import { el, markReady } from "../shared/dom.js";
import { clockText, paceText, playPath, sentence } from "../shared/format.js";
import { startLanguage, t } from "../shared/i18n.js";
import { preferences } from "../shared/preferences.js";
import { ChallengeStatus } from "../shared/protocol.js";
import { api, ApiError } from "../shared/rest.js";
import { whoBar } from "../shared/who.js";

const $ = (id) => document.getElementById(id);
const id = decodeURIComponent(location.pathname.replace(/^\/challenge\//, ""));
const POLL_MS = 2000;
// The reasons the server takes (people/challenge_types.py's DeclineReason), in the order offered.
const REASONS = ["generic", "later", "clock", "rated", "casual", "edition"];

await startLanguage();
$("preferences").replaceWith(preferences());
whoBar().then((bar) => $("who").replaceWith(bar));

let editions = [];
let session = null;
let challenge = null;
let poll = null;

/** Who the reader is to this challenge. */
function role() {
  if (!session) return "visitor";
  if (session.name === challenge.from) return "challenger";
  if (challenge.to === null || session.name === challenge.to) return "taker";
  return "visitor";
}

function showTerms() {
  const term = (key, value) => [el("dt", {}, t(key)), el("dd", {}, value)];
  $("challenge-terms").replaceChildren(
    ...term("challenge.edition", editionName(editions, challenge.edition)),
    ...term("challenge.clock", paceText(challenge.clock) || t("lobby.no_clock")),
    ...term("challenge.kind", t(challenge.rated ? "challenge.rated_word" : "challenge.casual")));
}

function stateText(who) {
  const left = clockText(challenge.expires_at - Date.now() / 1000);
  switch (challenge.status) {
    case ChallengeStatus.OPEN:
      if (who === "challenger") {
        const waiting = challenge.to === null ? t("challenge.waiting_link")
          : t("challenge.waiting_for", { name: challenge.to });
        return `${waiting} ${t("challenge.expires", { time: left })}`;
      }
      if (challenge.to === null) {
        return `${t("challenge.take_it", { from: challenge.from })} ${t("challenge.expires", { time: left })}`;
      }
      return `${t("challenge.for_you", { from: challenge.from })} ${t("challenge.expires", { time: left })}`;
    case ChallengeStatus.ACCEPTED:
      return t("challenge.accepted");
    case ChallengeStatus.DECLINED:
      return t("challenge.declined", { name: challenge.to, reason: challenge.reason_said });
    case ChallengeStatus.CANCELLED:
      return t("challenge.cancelled");
    default:
      return t("challenge.expired");
  }
}

function show() {
  const who = role();
  document.title = t("challenge.page_title");
  $("challenge-who").textContent = challenge.to === null ? t("challenge.open_from", { from: challenge.from })
    : t("challenge.named", { from: challenge.from, to: challenge.to });
  showTerms();
  $("challenge-state").textContent = stateText(who);
  const open = challenge.status === ChallengeStatus.OPEN;
  $("challenge-accept").hidden = !(open && who === "taker");
  $("decline-part").hidden = $("challenge-decline").hidden = !(open && who === "taker" && challenge.to !== null);
  $("challenge-cancel").hidden = !(open && who === "challenger");
  $("challenge-sign-in").hidden = !(open && !session && challenge.to === null);
  $("challenge-share").hidden = !(open && who === "challenger");
  $("challenge-link").value = location.href;
  const game = $("challenge-game");
  game.hidden = !challenge.game;
  if (challenge.game) game.href = playPath(challenge.game);
}

function showError(error) {
  $("challenge-error").textContent = sentence(error instanceof ApiError ? error.message : String(error));
}

async function refresh() {
  try {
    challenge = await api(`/api/challenges/${encodeURIComponent(id)}`);
  } catch (error) {
    showError(error);
    if (!challenge) $("challenge-actions").hidden = true;
    return;
  }
  show();
  if (challenge.status === ChallengeStatus.ACCEPTED && challenge.game && role() === "challenger") {
    location.assign(playPath(challenge.game)); // the seat opens signed in
    return;
  }
  clearTimeout(poll);
  // an accepted challenge's game is written a moment after the acceptance: ask until it is there
  const waiting = challenge.status === ChallengeStatus.OPEN || (challenge.status === ChallengeStatus.ACCEPTED && !challenge.game);
  if (waiting) poll = setTimeout(refresh, POLL_MS);
}

/** Send an answer (accept, decline, cancel) with its button held down meanwhile; the answer, or null. */
async function answer(button, path, options) {
  button.disabled = true;
  $("challenge-error").textContent = "";
  try {
    return await api(path, options);
  } catch (error) {
    showError(error);
    return null;
  } finally {
    button.disabled = false;
  }
}

$("challenge-accept").addEventListener("click", async (event) => {
  const taken = await answer(event.currentTarget, `/api/challenges/${encodeURIComponent(id)}/accept`,
    { method: "POST" });
  if (taken) location.assign(taken.url);
  else await refresh();
});
$("challenge-decline").addEventListener("click", async (event) => {
  await answer(event.currentTarget, `/api/challenges/${encodeURIComponent(id)}/decline`,
    { method: "POST", body: { reason: $("decline-reason").value } });
  await refresh();
});
$("challenge-cancel").addEventListener("click", async (event) => {
  await answer(event.currentTarget, `/api/challenges/${encodeURIComponent(id)}`, { method: "DELETE" });
  await refresh();
});
$("challenge-link").addEventListener("focus", (event) => event.currentTarget.select());

$("decline-reason").replaceChildren(...REASONS.map((r) => el("option", { value: r }, t(`challenge.reason.${r}`))));
[editions, session] = await Promise.all([api("/api/editions").catch(() => []), signedIn()]);
await refresh();
markReady();

// The analysis of a finished game, on request: the server's bot workers measure each move (the mover's journey
// distance before and after it) and say what the hard bot would have played there. The page asks, then asks again
// until it is ready, and shows the analysis of the move on screen, with buttons to the moves that lengthened a
// journey.

import { el } from "../shared/dom.js";
import { t, tn } from "../shared/i18n.js";
import { AnalysisStatus } from "../shared/protocol.js";
import { api } from "../shared/rest.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 1000;

export function installAnalysis(gameId, { onReady, onError, goTo }) {
  const button = $("replay-analyse");
  async function ask() {
    button.disabled = true;
    try {
      for (;;) {
        const answer = await api(`/api/games/${encodeURIComponent(gameId)}/analysis`, { method: "POST" });
        if (answer.status === AnalysisStatus.READY) {
          $("analysis-status").replaceChildren(...marks(answer.moves, goTo));
          onReady(answer);
          return;
        }
        if (answer.status === AnalysisStatus.FAILED) throw new Error(answer.error);
        $("analysis-status").textContent = t("replay.analysing", { done: answer.done, total: answer.total });
        await new Promise((resolve) => { setTimeout(resolve, POLL_MS); });
      }
    } catch (error) {
      $("analysis-status").textContent = "";
      button.disabled = false;
      onError(error.message);
    }
  }
  button.addEventListener("click", ask);
}

/** The moves that lengthened a journey, each a button to its position. */
function marks(moves, goTo) {
  const longer = moves.filter((m) => m.lengthened);
  if (!longer.length) return [t("replay.none_longer")];
  return [tn("replay.longer", longer.length), " ", ...longer.map((m) => el("button", {
    type: "button", class: "quiet analysis-mark", "data-mark": m.n, onclick: () => goTo(m.n),
  }, String(m.n)))];
}

/** A move (`Move.to_json()`) in the reader's words: "replace day 5, discard onto pile 1". */
function moveWords(move) {
  return t(`move.${move.kind}`, { day: move.day, day2: move.day2, pile: move.pile });
}

/** The analysis of move `n` in words (nothing before the first move or before the analysis is ready). */
export function analysisText(analysis, n) {
  if (!analysis || n === 0) return { text: "", lengthened: false };
  const move = analysis.moves[n - 1];
  const parts = [t("replay.distance", { before: move.before, after: move.after })];
  if (move.lengthened) parts.push(t("replay.lengthened"));
  if (move.better) parts.push(t("replay.bot_better", { move: moveWords(move.bot_move), after: move.bot_after }));
  else if (move.bot_move.text !== move.move.text) parts.push(t("replay.bot_other", { move: moveWords(move.bot_move) }));
  else parts.push(t("replay.bot_same"));
  return { text: parts.join(" "), lengthened: move.lengthened };
}

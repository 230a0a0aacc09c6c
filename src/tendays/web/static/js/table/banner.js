// The top of the table: the title, the connection, the error banner and the turn banner.

import { el } from "../shared/dom.js";
import { playPath, sentence } from "../shared/format.js";
import { t, tn } from "../shared/i18n.js";
import { EndReason, MatchStatus, SeatKind } from "../shared/protocol.js";
import { panel } from "./panel.js";
import { handedOver, isOver, isSpectator, movesOf } from "./state.js";
import { people } from "./tiles.js";

const $ = (id) => document.getElementById(id);

export function connectionPanel() {
  return panel((state) => state.link, (link) => {
    const node = $("connection");
    node.className = `connection ${link.state}`;
    if (link.state === "open") node.textContent = t("link.live");
    else if (link.state === "connecting") node.textContent = link.attempt ? t("link.reconnecting") : t("link.connecting");
    else if (link.state === "waiting") {
      node.textContent = t("link.retrying", { s: Math.max(1, Math.round(link.retryIn / 1000)) });
    } else if (link.state === "closed") node.textContent = t("link.closed");
    else if (link.state === "ended") node.textContent = t("link.session_ended");
    else node.textContent = "";
  });
}

export function errorPanel() {
  return panel((state) => state.error, (error) => {
    $("error").hidden = !error;
    if (error) $("error-text").textContent = sentence(error);
  });
}

export function headerPanel() {
  return panel((state) => ({
    title: state.edition.title,
    you: state.game.you,
    options: state.game.options,
    status: state.game.status,
    phase: state.game.phase,
    turn: state.game.turn,
    mine: state.game.status === MatchStatus.PLAYING && (state.game.legal_moves || []).length > 0,
    rated: Boolean(state.game.rated),
  }), ({ title, you, options, status, phase, turn, mine, rated }) => {
    const who = you === null || you === undefined ? t("header.watching") : t("header.seat", { n: you + 1 });
    const limit = options.turn_limit;
    const turnText = status === MatchStatus.PLAYING && phase !== "draft"
      ? ` · ${limit ? t("header.turn_of", { n: turn + 1, limit }) : t("header.turn", { n: turn + 1 })}` : "";
    const ratedText = rated ? ` · ${t("header.rated")}` : ""; // leaving a rated game loses it: say so up front
    $("game-title").textContent = `${title}${ratedText} · ${tn("lobby.days", options.days)} · ${who}${turnText}`;
    document.title = t(mine ? "table.title_mine" : "table.title", { title });
  });
}

function phaseWord(names, { phase, current, botPlaysMe }) {
  const mine = names.isMe(current) && !botPlaysMe;
  if (phase === "draft") return mine ? t("phase.draft_mine") : t("phase.draft", { name: names.name(current) });
  if (phase === "draw") return mine ? t("phase.draw_mine") : t("phase.draw");
  return mine ? t("phase.place_mine") : t("phase.place");
}

function copyLink(link, button) {
  const done = (ok) => {
    button.textContent = ok ? t("banner.copied") : t("banner.copy_by_hand");
    setTimeout(() => { button.textContent = t("banner.copy"); }, 2500);
  };
  // The clipboard API exists only on https or localhost; elsewhere fall back to copying the selection.
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(link).then(() => done(true), () => done(false));
    return;
  }
  const input = document.querySelector(".turn-banner .share");
  input.select();
  let ok;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  done(ok);
}

/** A rated game beyond the repeat cap of the same players is played and won, but moves no rating: say so. */
function cappedText(turn) {
  return turn.ratedOutcome === "capped" ? ` ${t("banner.capped")}` : "";
}

/** The turn banner: waiting for players, whose turn it is, or who won. */
export function turnPanel(gameId) {
  return panel((state) => ({
    id: gameId,
    status: state.game.status,
    phase: state.game.phase,
    over: isOver(state.game),
    seats: state.game.seats,
    you: state.game.you,
    current: state.game.current,
    winner: state.game.winner,
    ended: state.game.ended,
    ratedOutcome: state.game.rated_outcome, // what a rated result did, told a moment after the end
    mine: movesOf(state).length > 0,
    botPlaysMe: Boolean(handedOver(state.game)),
    sending: state.busy && !isSpectator(state.game) && state.game.current === state.game.you,
  }), (turn) => {
    const banner = $("turn");
    const names = people(turn.seats, turn.you);
    banner.className = "turn-banner";
    if (turn.status === MatchStatus.WAITING) {
      const free = turn.seats.filter((s) => s.kind === SeatKind.HUMAN && !s.name).length;
      const link = `${location.origin}${playPath(turn.id)}`;
      banner.classList.add("waiting");
      banner.replaceChildren(
        el("strong", {}, `${t("banner.waiting")} `),
        `${free ? tn("banner.starts_free", free) : t("banner.starts")} `,
        el("input", { class: "share", readonly: true, value: link, "aria-label": t("banner.link_label"),
          onfocus: (e) => e.target.select() }),
        el("button", { type: "button", onclick: (e) => copyLink(link, e.currentTarget) }, t("banner.copy")));
    } else if (turn.over && turn.ratedOutcome === "aborted") { // ended before everyone's first move: no result
      banner.classList.add("over");
      banner.replaceChildren(el("strong", {}, t("banner.aborted")), ` ${t("banner.aborted_why")}`);
    } else if (turn.over && turn.ended) {
      banner.classList.add("over");
      const forfeit = turn.ended === EndReason.FORFEIT; // a rated game left to one person, who won it
      banner.replaceChildren(el("strong", {}, forfeit ? t("banner.forfeit")
        : turn.ended === "closed" ? t("banner.closed") : t("banner.abandoned")),
      ` ${forfeit ? t("banner.forfeit_why") : t("banner.nobody_won_why")}`, cappedText(turn));
    } else if (turn.over) {
      banner.classList.add("over");
      const text = turn.winner === null || turn.winner === undefined ? t("banner.nobody")
        : names.isMe(turn.winner) ? t("banner.you_win") : t("banner.wins", { name: names.name(turn.winner) });
      banner.replaceChildren(el("strong", {}, text), ` ${t("banner.revealed")}`, cappedText(turn));
    } else if (turn.mine || turn.sending) {
      banner.classList.add("mine");
      banner.replaceChildren(el("strong", {}, `${t("banner.your_turn")} `),
        turn.sending ? t("banner.sending") : phaseWord(names, turn));
    } else if (turn.botPlaysMe && names.isMe(turn.current)) {
      banner.replaceChildren(el("strong", {}, `${t("banner.bot_plays_you")} `), phaseWord(names, turn));
    } else {
      banner.replaceChildren(el("strong", {}, `${t("banner.turn_of", { name: names.name(turn.current) })} `),
        phaseWord(names, turn));
    }
  });
}

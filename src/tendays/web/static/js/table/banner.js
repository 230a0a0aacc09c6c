// The top of the table: the title, the connection, the error banner and the turn banner.

import { el, playPath } from "../common.js";
import { isOver, isSpectator, movesOf } from "./store.js";
import { panel } from "./panel.js";
import { people } from "./tiles.js";

const $ = (id) => document.getElementById(id);

export function connectionPanel() {
  return panel((state) => state.link, (link) => {
    const node = $("connection");
    node.className = `connection ${link.state}`;
    if (link.state === "open") node.textContent = "● live";
    else if (link.state === "connecting") node.textContent = link.attempt ? "reconnecting…" : "connecting…";
    else if (link.state === "waiting") {
      node.textContent = `connection lost: retrying in ${Math.max(1, Math.round(link.retryIn / 1000))} s`;
    } else if (link.state === "closed") node.textContent = "disconnected";
    else node.textContent = "";
  });
}

export function errorPanel() {
  return panel((state) => state.error, (error) => {
    $("error").hidden = !error;
    if (error) $("error-text").textContent = error;
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
    mine: state.game.status === "playing" && (state.game.legal_moves || []).length > 0,
  }), ({ title, you, options, status, phase, turn, mine }) => {
    const who = you === null || you === undefined ? "watching" : `seat ${you + 1}`;
    const limit = options.turn_limit;
    const turnText = status === "playing" && phase !== "draft"
      ? ` · turn ${turn + 1}${limit ? ` of ${limit}` : ""}` : "";
    $("game-title").textContent = `${title} · ${options.days} days · ${who}${turnText}`;
    document.title = `${mine ? "Your turn · " : ""}10 Days: ${title}`;
  });
}

function phaseWord(names, { phase, current }) {
  const mine = names.isMe(current);
  const name = mine ? "you" : names.name(current);
  if (phase === "draft") return `Drafting: ${name} ${mine ? "place" : "places"} a tile on an empty day.`;
  if (phase === "draw") return `${mine ? "Draw" : "Drawing"} a tile.`;
  return `${mine ? "Place or discard" : "Placing"} the drawn tile.`;
}

function copyLink(link, button) {
  const done = (ok) => {
    button.textContent = ok ? "Copied ✓" : "Select the link and copy it";
    setTimeout(() => { button.textContent = "Copy link"; }, 2500);
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
    mine: movesOf(state).length > 0,
    sending: state.busy && !isSpectator(state.game) && state.game.current === state.game.you,
  }), (turn) => {
    const banner = $("turn");
    const names = people(turn.seats, turn.you);
    banner.className = "turn-banner";
    if (turn.status === "waiting") {
      const free = turn.seats.filter((s) => s.kind === "human" && !s.name).length;
      const link = `${location.origin}${playPath(turn.id)}`;
      banner.classList.add("waiting");
      banner.replaceChildren(
        el("strong", {}, "Waiting for players. "),
        `The game starts when every seat is taken${free ? ` (${free} free)` : ""}. Share this link: `,
        el("input", { class: "share", readonly: true, value: link, "aria-label": "Link to join this game",
          onfocus: (e) => e.target.select() }),
        el("button", { type: "button", onclick: (e) => copyLink(link, e.currentTarget) }, "Copy link"));
    } else if (turn.over && turn.ended) {
      banner.classList.add("over");
      banner.replaceChildren(el("strong", {}, turn.ended === "closed" ? "Game over: the server's operator closed it."
        : "Game over: the game was abandoned."), " Nobody won; the chat says why.");
    } else if (turn.over) {
      banner.classList.add("over");
      const text = turn.winner === null || turn.winner === undefined ? "Game over: nobody completed a journey."
        : names.isMe(turn.winner) ? "You win! Your journey is complete." : `${names.name(turn.winner)} wins!`;
      banner.replaceChildren(el("strong", {}, text), " All racks are revealed below.");
    } else if (turn.mine || turn.sending) {
      banner.classList.add("mine");
      banner.replaceChildren(el("strong", {}, "Your turn. "), turn.sending ? "Sending…" : phaseWord(names, turn));
    } else {
      banner.replaceChildren(el("strong", {}, `${names.whose(turn.current)} turn. `), phaseWord(names, turn));
    }
  });
}

// The table: one seat's live view of a game (or a spectator's), with the map, the rack, the piles,
// the players and the log. Every change comes from the server's state messages; the page only asks.

import { api, el, playPath, remembered } from "./common.js";
import { TableConnection } from "./connection.js";
import { kindIcon, loadEdition } from "./edition.js";
import { MapView } from "./map.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);

const ui = {
  game: null, // the last state's game
  version: -1,
  edition: null,
  map: null,
  connection: null,
  selectedDay: null, // a day chosen to replace (place phase) or to swap (draw phase)
  selectAfterTake: null, // a day to select once a tile taken by drag-and-drop arrives
  hint: null, // {days, message} until the next move
  busy: false, // a move is on its way; wait for the answer
  mapSeat: null, // whose journey the map shows after the game
  errorTimer: null,
  shown: { rack: null, tops: null }, // what the last drawing showed, to let a changed tile flash once
};

// ---------------------------------------------------------------------------------------------
// Legal moves, read from the server's list ("draw", "take 2", "replace 4 1", ...)

function readLegal(list) {
  const legal = { draft: new Set(), draw: false, take: new Set(), swap: new Set(), replace: new Map(),
    discard: new Set(), any: list.length > 0 };
  for (const text of list) {
    const [kind, a, b] = text.split(" ");
    const x = Number(a);
    const y = Number(b);
    if (kind === "draft") legal.draft.add(x);
    else if (kind === "draw") legal.draw = true;
    else if (kind === "take") legal.take.add(x);
    else if (kind === "swap") legal.swap.add(`${Math.min(x, y)} ${Math.max(x, y)}`);
    else if (kind === "discard") legal.discard.add(x);
    else if (kind === "replace") {
      if (!legal.replace.has(x)) legal.replace.set(x, new Set());
      legal.replace.get(x).add(y);
    }
  }
  return legal;
}

function legalNow() {
  const game = ui.game;
  return readLegal(game && !ui.busy ? game.legal_moves || [] : []);
}

function canSwap(legal, a, b) {
  return legal.swap.has(`${Math.min(a, b)} ${Math.max(a, b)}`);
}

// ---------------------------------------------------------------------------------------------
// Talking to the server

function send(move) {
  const game = ui.game;
  if (!game || ui.busy) return;
  if (!ui.connection.send({ type: "move", move, version: ui.version })) {
    showError("You are not connected, so the move was not sent. Reconnecting…");
    return;
  }
  ui.busy = true;
  render();
}

function askHint() {
  if (!ui.connection.send({ type: "hint" })) showError("You are not connected. Reconnecting…");
}

function showError(message) {
  $("error-text").textContent = message;
  $("error").hidden = false;
  clearTimeout(ui.errorTimer);
  ui.errorTimer = setTimeout(hideError, 12000);
}

function hideError() {
  $("error").hidden = true;
}

function onMessage(message) {
  if (message.type === "state") {
    const fresh = message.version !== ui.version;
    const rackChanged = JSON.stringify(message.game.rack) !== JSON.stringify(ui.game ? ui.game.rack : null);
    ui.game = message.game;
    ui.version = message.version;
    ui.busy = false;
    if (fresh) {
      ui.selectedDay = null;
      hideError();
    }
    if (rackChanged) ui.hint = null; // a hint is about the rack; it holds until the rack changes
    if (ui.selectAfterTake !== null && message.game.phase === "place") {
      ui.selectedDay = ui.selectAfterTake;
    }
    ui.selectAfterTake = null;
    if (ui.game.you !== null && ui.game.you !== undefined) {
      remembered.setSeat(gameId, ui.token, { seat: ui.game.you, edition: ui.game.edition });
    }
    ensureEdition().then(render, (error) => showError(`The edition could not be loaded: ${error.message}`));
  } else if (message.type === "error") {
    ui.busy = false;
    ui.selectAfterTake = null;
    showError(message.message || `The server refused: ${message.code}`);
    render();
  } else if (message.type === "hint") {
    ui.hint = { days: message.days || [], message: message.message || "" };
    render();
  }
}

function onStatus(status) {
  const node = $("connection");
  node.className = `connection ${status.state}`;
  if (status.state === "open") node.textContent = "● live";
  else if (status.state === "connecting") node.textContent = status.attempt ? "reconnecting…" : "connecting…";
  else if (status.state === "waiting") {
    node.textContent = `connection lost: retrying in ${Math.max(1, Math.round(status.retryIn / 1000))} s`;
    ui.busy = false;
  } else {
    node.textContent = "disconnected";
    showError(status.reason || "The connection was closed.");
    if (status.code === 4403 && ui.token) {
      // A seat link that is not (or no longer) valid here: forget it, and offer to join or watch instead.
      remembered.forget(gameId);
      history.replaceState(null, "", playPath(gameId));
      $("table").hidden = true;
      offerJoin();
    }
  }
}

async function ensureEdition() {
  const editionId = ui.game.edition;
  if (ui.edition && ui.edition.id === editionId) return;
  try {
    const { edition, geometry } = await loadEdition(editionId, api);
    ui.edition = edition;
    ui.map = new MapView($("map"), edition, geometry);
    const credit = $("credit");
    credit.replaceChildren(geometry.credit_url
      ? el("a", { href: geometry.credit_url, rel: "noopener", target: "_blank" }, geometry.credit)
      : geometry.credit);
  } catch (error) {
    $("map").replaceChildren(el("p", { class: "form-error" }, `The map could not be loaded: ${error.message}`));
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Names and small pieces

function seatName(seat) {
  const info = ui.game.seats[seat];
  if (!info) return `Player ${seat + 1}`;
  return info.name || (info.kind === "bot" ? `Bot ${seat + 1}` : `Player ${seat + 1}`);
}

function isMe(seat) {
  return ui.game.you !== null && ui.game.you !== undefined && seat === ui.game.you;
}

function whose(seat) {
  return isMe(seat) ? "Your" : `${seatName(seat)}’s`;
}

/** A tile as a card: colour, icon and name. `size` is "big" (rack, piles) or "mini" (lists). */
function tileCard(tileId, { size = "big", extra = "" } = {}) {
  const edition = ui.edition;
  if (tileId === null || tileId === undefined) {
    return el("span", { class: `tile ${size} empty ${extra}` }, el("span", { class: "tile-name" }, "empty"));
  }
  const tile = edition.tile(tileId);
  const css = edition.css(tileId);
  const any = tile.role === "region" && !css;
  const length = edition.name(tileId).length;
  const long = length > 11 ? " long longer" : length > 9 ? " long" : "";
  const node = el("span", {
    class: `tile ${size} ${tile.role}${any ? " any-colour" : ""}${long} ${extra}`,
    style: css ? `--tile: ${css}` : null,
    title: edition.describe(tileId),
    "data-tile": tileId,
  },
  tile.role === "region" ? null : kindIcon(tile.kind, size === "mini" ? 14 : 20),
  el("span", { class: "tile-name" }, edition.name(tileId)));
  if (size === "big") {
    const sub = tile.role === "region" ? edition.colorName(tileId)
      : tile.role === "link" ? `joins two ${tile.color} ${edition.regionNoun}s` : `skips one ${edition.regionNoun}`;
    node.append(el("span", { class: "tile-sub" }, sub));
  }
  return node;
}

function miniRack(rack) {
  return el("ol", { class: "mini-rack" }, rack.map((tileId, i) => el("li", {},
    el("span", { class: "mini-day" }, i + 1), tileCard(tileId, { size: "mini" }))));
}

/** The status of the step between day d and day d + 1 in a verdict: {ok, message} or null. */
function stepStatus(journey, day) {
  if (!journey) return null;
  for (const link of journey.links || []) {
    if (link.from_day <= day && day + 1 <= link.to_day) return { ok: link.ok, message: link.message };
  }
  for (const problem of journey.problems || []) {
    if (problem.day === day && problem.to_day === day + 1) return { ok: false, message: problemText(problem) };
  }
  return null;
}

function problemText(problem) {
  const text = problem.message || "";
  if (/^day \d/.test(text)) return text;
  const where = problem.to_day ? `day ${problem.day} → ${problem.to_day}` : `day ${problem.day}`;
  return `${where}: ${text}`;
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** A selector that finds "the same" control again after the table is drawn anew, so keyboard focus stays. */
function focusKey(node) {
  if (!node || node === document.body) return null;
  if (node.id) return `#${node.id}`;
  const day = node.closest("#rack .day");
  if (day) return `#rack .day[data-day='${day.dataset.day}']`;
  const pile = node.closest(".discard-pile");
  if (pile) return `.discard-pile[data-pile='${pile.dataset.pile}'] button`;
  if (node.closest(".draw-pile")) return ".draw-pile button";
  const end = node.closest(".end-rack");
  if (end) return `.end-rack[data-seat='${end.dataset.seat}'] button`;
  return null;
}

function render() {
  const before = document.activeElement;
  const key = focusKey(before);
  const keyboard = Boolean(before && before.matches(":focus-visible"));
  draw();
  if (key && (!document.activeElement || document.activeElement === document.body)) {
    let again = document.querySelector(key);
    if ((!again || again.disabled) && keyboard) {
      // The control is gone or disabled (a move was made): go on to the next thing the player can do.
      again = document.querySelector("#table button.day.active, #table [data-move]:not([disabled])");
    }
    if (again && !again.disabled) again.focus();
  }
}

function draw() {
  const game = ui.game;
  if (!game || !ui.edition) return;
  $("table").hidden = false;
  // The version shown, for anyone (tests, tools) that waits for the table to change.
  document.body.dataset.version = String(ui.version);
  const legal = legalNow();
  if (ui.selectedDay !== null && !legal.replace.has(ui.selectedDay) && !legal.any) ui.selectedDay = null;
  renderHeader(game);
  renderTurn(game, legal);
  renderHand(game, legal);
  renderRack(game, legal);
  renderMap(game);
  renderPlayers(game);
  renderLog(game);
  renderEnd(game);
}

function renderHeader(game) {
  const who = game.you === null || game.you === undefined ? "watching" : `seat ${game.you + 1}`;
  const limit = game.options.turn_limit;
  const turn = game.status === "playing" && game.phase !== "draft"
    ? ` · turn ${game.turn + 1}${limit ? ` of ${limit}` : ""}` : "";
  $("game-title").textContent = `${ui.edition.title} · ${game.options.days} days · ${who}${turn}`;
  const mine = game.status === "playing" && (game.legal_moves || []).length > 0;
  document.title = `${mine ? "Your turn · " : ""}10 Days: ${ui.edition.title}`;
}

function renderTurn(game, legal) {
  const banner = $("turn");
  banner.className = "turn-banner";
  if (game.status === "waiting") {
    const free = game.seats.filter((s) => s.kind === "human" && !s.name).length;
    const link = `${location.origin}${playPath(gameId)}`;
    banner.classList.add("waiting");
    banner.replaceChildren(
      el("strong", {}, "Waiting for players. "),
      `The game starts when every seat is taken${free ? ` (${free} free)` : ""}. Share this link: `,
      el("input", { class: "share", readonly: true, value: link, "aria-label": "Link to join this game",
        onfocus: (e) => e.target.select() }),
      el("button", { type: "button", onclick: (e) => copyLink(link, e.currentTarget) }, "Copy link"));
    return;
  }
  if (game.phase === "over" || game.status === "over") {
    banner.classList.add("over");
    const text = game.winner === null || game.winner === undefined ? "Game over: nobody completed a journey."
      : isMe(game.winner) ? "You win! Your journey is complete." : `${seatName(game.winner)} wins!`;
    banner.replaceChildren(el("strong", {}, text), " All racks are revealed below.");
    return;
  }
  if (legal.any || (ui.busy && isMe(game.current))) {
    banner.classList.add("mine");
    banner.replaceChildren(el("strong", {}, "Your turn. "), ui.busy ? "Sending…" : phaseWord(game));
  } else {
    banner.replaceChildren(el("strong", {}, `${whose(game.current)} turn. `), phaseWord(game));
  }
}

function phaseWord(game) {
  const name = isMe(game.current) ? "you" : seatName(game.current);
  if (game.phase === "draft") return `Drafting: ${name} ${isMe(game.current) ? "place" : "places"} a tile on an empty day.`;
  if (game.phase === "draw") return `${isMe(game.current) ? "Draw" : "Drawing"} a tile.`;
  return `${isMe(game.current) ? "Place or discard" : "Placing"} the drawn tile.`;
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
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch (error) {
    ok = false;
  }
  done(ok);
}

function renderHand(game, legal) {
  const edition = ui.edition;
  const prompt = $("prompt");
  const piles = $("piles");
  const mine = legal.any;
  const hand = game.in_hand;
  const spectator = game.you === null || game.you === undefined;
  $("hand-title").textContent = spectator ? "The table" : "Your move";
  // A hint says which days stand between the rack and a complete journey; it needs a full rack.
  $("hint-button").hidden = spectator || game.status !== "playing" || game.phase === "draft";
  const hintText = $("hint-text");
  hintText.hidden = !ui.hint;
  if (ui.hint) hintText.textContent = ui.hint.message || `Change day ${ui.hint.days.join(", ")}.`;

  const emptied = game.phase === "place" && game.taken_from > 0 && game.piles[game.taken_from - 1].length === 0
    ? game.taken_from : 0;
  let text = "";
  if (game.status === "waiting") text = "The game has not started yet.";
  else if (game.phase === "over") text = "The game is over.";
  else if (!mine) {
    if (game.phase === "place" && hand) text = `${seatName(game.current)} holds ${edition.name(hand)}.`;
    else text = spectator ? "You are watching this game." : `Wait for ${seatName(game.current)}.`;
  } else if (game.phase === "draft") {
    text = `You drew ${edition.describe(hand)}. Put it on an empty day: click the day, or drag the tile there. `
      + "A placed tile never moves.";
  } else if (game.phase === "draw") {
    text = "Draw the top tile of the draw pile, or take the top tile of a discard pile "
      + "(click it, or drag it onto the day you want it on).";
    if (legal.swap.size) text += " Or swap two of your days: click one day, then the other.";
  } else if (ui.selectedDay !== null) {
    const old = game.rack[ui.selectedDay - 1];
    text = `Day ${ui.selectedDay} gets ${edition.name(hand)}. Choose the discard pile for ${edition.name(old)} `
      + "(or click the day again to cancel).";
  } else {
    text = `You hold ${edition.describe(hand)}. Click a day to put it there (then choose where the old tile goes), `
      + "drag it onto a day, or discard it onto a pile.";
  }
  if (emptied && mine) {
    text += ` You took the last tile of pile ${emptied}: your discard must go onto pile ${emptied}, `
      + "so there are always three piles.";
  }
  prompt.textContent = text;

  const children = [];
  // The tile in hand (the drafted or drawn tile), visible to its holder, or to all when taken from a pile.
  const holding = Boolean(hand) && game.phase !== "over";
  const handCard = holding ? tileCard(hand) : el("span", { class: "tile big empty" },
    el("span", { class: "tile-name" }, "—"));
  if (holding && mine) makeDraggable(handCard, { from: "hand" });
  children.push(el("div", { class: `slot in-hand${holding ? " holding" : ""}` },
    el("span", { class: "slot-label" }, holding && !mine ? `${seatName(game.current)} holds` : "In your hand"),
    handCard));
  // The draw pile.
  const drawButton = el("button", {
    type: "button", class: "pile-action", disabled: !legal.draw, "data-move": legal.draw ? "draw" : null,
    onclick: () => send("draw"), "aria-label": `Draw from the draw pile (${game.draw_pile} tiles)`,
  }, "Draw");
  children.push(el("div", { class: "slot draw-pile" },
    el("span", { class: "slot-label" }, "Draw pile"),
    el("span", { class: "tile big back" }, el("span", { class: "tile-name" }, `${game.draw_pile}`),
      el("span", { class: "tile-sub" }, game.draw_pile === 1 ? "tile" : "tiles")),
    drawButton));
  // The three discard piles, top tile last.
  const previousTops = ui.shown.tops;
  ui.shown.tops = game.piles.map((pile) => (pile.length ? pile[pile.length - 1] : null));
  game.piles.forEach((pile, i) => {
    const number = i + 1;
    const top = pile.length ? pile[pile.length - 1] : null;
    const changed = previousTops && previousTops[i] !== top;
    let action = null;
    if (game.phase === "draw") {
      const ok = legal.take.has(number);
      action = el("button", {
        type: "button", class: "pile-action", disabled: !ok, "data-move": ok ? `take ${number}` : null,
        onclick: () => send(`take ${number}`),
        "aria-label": top ? `Take ${edition.name(top)} from discard pile ${number}` : `Discard pile ${number} is empty`,
      }, "Take");
    } else if (game.phase === "place" && mine) {
      if (ui.selectedDay !== null) {
        const ok = (legal.replace.get(ui.selectedDay) || new Set()).has(number);
        const old = edition.name(game.rack[ui.selectedDay - 1]);
        const move = `replace ${ui.selectedDay} ${number}`;
        action = el("button", {
          type: "button", class: "pile-action primary", disabled: !ok, "data-move": ok ? move : null,
          onclick: () => send(move),
          title: ok ? `${old} goes onto pile ${number}` : `Your discard must go onto pile ${emptied}`,
          "aria-label": `Put ${edition.name(hand)} on day ${ui.selectedDay} and discard ${old} onto pile ${number}`,
        }, "Discard here");
      } else {
        const ok = legal.discard.has(number);
        action = el("button", {
          type: "button", class: "pile-action", disabled: !ok, "data-move": ok ? `discard ${number}` : null,
          onclick: () => send(`discard ${number}`), title: ok ? null : `Your discard must go onto pile ${emptied}`,
          "aria-label": `Discard ${edition.name(hand)} onto pile ${number}`,
        }, "Discard here");
      }
    }
    const card = tileCard(top, { extra: `${emptied === number && mine ? "must-discard" : ""}${changed ? " changed" : ""}` });
    if (top && legal.take.has(number)) makeDraggable(card, { from: "pile", pile: number });
    children.push(el("div", {
      class: `slot discard-pile${emptied === number && mine ? " forced" : ""}`, "data-drop-pile": number,
      "data-pile": number,
    },
    el("span", { class: "slot-label" }, `Pile ${number}`, pile.length > 1 ? el("span", { class: "depth" },
      ` +${pile.length - 1}`) : null),
    card, action));
  });
  piles.replaceChildren(...children);
}

function renderRack(game, legal) {
  const edition = ui.edition;
  const rackNode = $("rack");
  const problems = $("problems");
  const summary = $("journey-summary");
  const spectator = game.you === null || game.you === undefined;
  $("rack-title").textContent = spectator ? "Journeys" : "Your journey";
  if (!game.rack) {
    const over = game.phase === "over" || game.status === "over";
    rackNode.replaceChildren(el("li", { class: "muted" }, !spectator ? "Your rack appears when the game starts."
      : over ? "Every rack is revealed below." : game.racks ? "Open hands: every rack is shown under Players."
        : "Spectators see no racks until the game ends."));
    problems.replaceChildren();
    summary.textContent = "";
    return;
  }
  const journey = game.journey;
  const hinted = new Set(ui.hint ? ui.hint.days : []);
  const previous = ui.shown.rack;
  ui.shown.rack = game.rack.slice();
  const items = game.rack.map((tileId, i) => {
    const day = i + 1;
    const changed = previous && previous.length === game.rack.length && previous[i] !== tileId;
    const draftable = legal.draft.has(day);
    const replaceable = legal.replace.has(day);
    const swappable = legal.swap.size > 0 && [...legal.swap].some((p) => p.split(" ").map(Number).includes(day));
    const selected = ui.selectedDay === day;
    const clickable = draftable || replaceable || swappable;
    let label = `Day ${day}: ${edition.describe(tileId)}`;
    if (draftable) label += `. Put ${edition.name(game.in_hand)} here`;
    else if (replaceable) label += selected ? ". Selected: choose a discard pile" : `. Replace with ${edition.name(game.in_hand)}`;
    else if (swappable) label += selected ? ". Selected for a swap" : ". Swap";
    const card = el("button", {
      type: "button",
      class: `day${selected ? " selected" : ""}${hinted.has(day) ? " hinted" : ""}${clickable ? " active" : ""}`
        + (changed ? " changed" : ""),
      "data-day": day,
      "data-drop-day": day,
      "data-move": draftable ? `draft ${day}` : null,
      "aria-pressed": replaceable || swappable ? String(selected) : null,
      "aria-label": label,
      disabled: !clickable,
      onclick: () => clickDay(day),
    }, el("span", { class: "day-no" }, `Day ${day}`), tileCard(tileId));
    if (tileId !== null && (swappable || replaceable)) makeDraggable(card, { from: "day", day }, { touch: false });
    const step = day < game.rack.length ? stepStatus(journey, day) : null;
    const connector = day < game.rack.length ? el("span", {
      class: `step ${step ? (step.ok ? "ok" : "broken") : "unknown"}`,
      title: step ? step.message : "not checked yet",
      "aria-label": step ? `Day ${day} to ${day + 1}: ${step.ok ? "" : "broken: "}${step.message}`
        : `Day ${day} to ${day + 1}: not checked yet`,
      role: "img",
    }, step ? (step.ok ? "✓" : "✗") : "·") : null;
    return el("li", { class: "rack-item" }, card, connector);
  });
  rackNode.replaceChildren(...items);
  // An empty day is no news while the racks are still being filled.
  const list = (journey ? journey.problems || [] : [])
    .filter((p) => !(p.to_day === null || p.to_day === undefined) || game.rack[p.day - 1] !== null);
  const placed = game.rack.filter((t) => t !== null).length;
  if (game.status === "waiting" || placed < game.rack.length) {
    summary.className = "small muted";
    summary.textContent = `${placed} of ${game.rack.length} days filled`;
  } else if (journey && journey.valid) {
    summary.className = "small good";
    summary.textContent = "✓ a complete journey";
  } else if (journey) {
    summary.className = "small bad";
    summary.textContent = `${list.length} problem${list.length === 1 ? "" : "s"}`;
  } else {
    summary.textContent = "";
  }
  problems.replaceChildren(...list.map((p) => el("li", { class: "problem" }, "✗ ", problemText(p))));
}

function clickDay(day) {
  const game = ui.game;
  const legal = legalNow();
  if (legal.draft.has(day)) {
    send(`draft ${day}`);
    return;
  }
  if (game.phase === "place" && legal.replace.has(day)) {
    ui.selectedDay = ui.selectedDay === day ? null : day;
    render();
    focusPileAction();
    return;
  }
  if (game.phase === "draw" && legal.swap.size) {
    if (ui.selectedDay === null) ui.selectedDay = day;
    else if (ui.selectedDay === day) ui.selectedDay = null;
    else if (canSwap(legal, ui.selectedDay, day)) {
      const first = ui.selectedDay;
      ui.selectedDay = null;
      send(`swap ${first} ${day}`);
      return;
    }
    render();
  }
}

function focusPileAction() {
  // Keyboard players continue at the first pile they may discard onto.
  if (ui.selectedDay === null) return;
  const button = document.querySelector("#piles .discard-pile button:not([disabled])");
  if (button && document.activeElement && document.activeElement.matches("button.day:focus-visible")) button.focus();
}

function renderMap(game) {
  if (!ui.map) return;
  const over = game.phase === "over" || game.status === "over";
  let seat = game.you;
  if (over && game.racks) {
    if (ui.mapSeat === null) ui.mapSeat = game.winner ?? game.you ?? 0;
    seat = ui.mapSeat;
  }
  let rack = null;
  let journey = null;
  if (seat !== null && seat !== undefined) {
    rack = game.racks ? game.racks[seat] : isMe(seat) ? game.rack : null;
    journey = game.journeys ? game.journeys[seat] : isMe(seat) ? game.journey : null;
  }
  const label = seat === null || seat === undefined ? "" : isMe(seat) ? "your journey" : `${seatName(seat)}’s journey`;
  ui.map.showJourney(rack, journey, { highlight: ui.hint ? ui.hint.days : [], label });
  $("map-caption").textContent = rack && rack.some((t) => t !== null) ? `showing ${label}` : "";
}

function recentActions(game, seat) {
  const name = seatName(seat);
  return (game.log || []).filter((entry) => entry.player === seat && ["take", "discard", "replace", "swap", "draw"]
    .includes(entry.kind)).slice(-3).map((entry) => {
    const text = entry.text || entry.kind;
    return text.startsWith(`${name} `) ? text.slice(name.length + 1) : text;
  });
}

function renderPlayers(game) {
  const list = game.seats.map((seat) => {
    const current = game.status === "playing" && game.phase !== "over" && seat.seat === game.current;
    const bits = [];
    if (seat.kind === "bot") bits.push(`bot, ${seat.bot}`);
    else if (!seat.name) bits.push("free seat");
    else bits.push(seat.connected ? "online" : "offline");
    const days = game.options.days;
    // With open hands every rack is on the table; after the game they are shown in the end panel instead.
    const over = game.phase === "over" || game.status === "over";
    const rack = game.racks && !over && !isMe(seat.seat) ? game.racks[seat.seat] : null;
    return el("li", { class: `player${current ? " current" : ""}${isMe(seat.seat) ? " me" : ""}`, "data-seat": seat.seat },
      el("div", { class: "player-head" },
        el("span", { class: `presence ${seat.kind === "bot" ? "bot" : seat.connected ? "on" : "off"}`,
          "aria-hidden": "true" }),
        el("strong", {}, seatName(seat.seat)), isMe(seat.seat) ? el("span", { class: "you" }, "you") : null,
        el("span", { class: "muted small" }, bits.join(" · ")),
        current ? el("span", { class: "turn-mark" }, "to move") : null,
        game.winner === seat.seat ? el("span", { class: "winner-mark" }, "winner") : null),
      el("div", { class: "small" }, `${seat.tiles ?? 0} of ${days} days filled`),
      rack ? miniRack(rack) : null,
      el("ul", { class: "actions-list small" }, recentActions(game, seat.seat).map((t) => el("li", {}, t))));
  });
  $("players").replaceChildren(...list);
}

function renderLog(game) {
  const log = $("log");
  const entries = (game.log || []).slice(-200);
  const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
  log.replaceChildren(...entries.map((entry) => el("li", {
    class: `log-${entry.kind}${entry.player !== null && entry.player !== undefined && isMe(entry.player) ? " mine" : ""}`,
  }, entry.text)));
  if (atBottom || log.dataset.filled !== "1") log.scrollTop = log.scrollHeight;
  log.dataset.filled = "1";
}

function renderEnd(game) {
  const end = $("end");
  const over = game.phase === "over" || game.status === "over";
  end.hidden = !(over && game.racks);
  if (end.hidden) return;
  $("end-title").textContent = game.winner === null || game.winner === undefined ? "The end: nobody won"
    : `The end: ${seatName(game.winner)} wins`;
  $("end-racks").replaceChildren(...game.racks.map((rack, seat) => {
    const journey = game.journeys ? game.journeys[seat] : null;
    const problems = journey ? journey.problems || [] : [];
    const shown = ui.mapSeat === seat;
    return el("div", { class: `end-rack${game.winner === seat ? " winner" : ""}`, "data-seat": seat },
      el("div", { class: "player-head" }, el("strong", {}, seatName(seat)),
        isMe(seat) ? el("span", { class: "you" }, "you") : null,
        game.winner === seat ? el("span", { class: "winner-mark" }, "winner") : null,
        el("span", { class: `small ${journey && journey.valid ? "good" : "bad"}` },
          journey ? (journey.valid ? "✓ complete journey" : `${problems.length} problem${problems.length === 1 ? "" : "s"}`)
            : ""),
        el("button", { type: "button", class: "quiet", "aria-pressed": String(shown),
          onclick: () => { ui.mapSeat = seat; render(); } }, shown ? "On the map" : "Show on the map")),
      miniRack(rack),
      problems.length ? el("details", {}, el("summary", { class: "small" }, "Why not complete"),
        el("ul", { class: "problems" }, problems.map((p) => el("li", { class: "problem" }, problemText(p))))) : null);
  }));
}

// ---------------------------------------------------------------------------------------------
// Drag and drop with pointer events (mouse, pen and touch alike). A press that does not move is a click.

let drag = null;
let swallowClick = false;

/**
 * Let `node` be dragged. Days are dragged only with a mouse or pen: on a touch screen the rack is a large
 * area that must still scroll, and tapping a day does the same thing.
 */
function makeDraggable(node, payload, { touch = true } = {}) {
  node.classList.add("draggable");
  if (touch) node.classList.add("touch-drag");
  node.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || ui.busy || (!touch && event.pointerType === "touch")) return;
    drag = { payload, node, x: event.clientX, y: event.clientY, ghost: null, pointer: event.pointerId };
  });
}

function dropTargetAt(x, y) {
  const hit = document.elementFromPoint(x, y);
  return hit ? hit.closest("[data-drop-day], [data-drop-pile]") : null;
}

/** What dropping `payload` on `target` would do: a move to send, a day to select, or null. */
function dropAction(payload, target) {
  if (!target) return null;
  const legal = legalNow();
  const game = ui.game;
  const day = target.dataset.dropDay ? Number(target.dataset.dropDay) : null;
  const pile = target.dataset.dropPile ? Number(target.dataset.dropPile) : null;
  if (payload.from === "hand" && day !== null) {
    if (legal.draft.has(day)) return { move: `draft ${day}` };
    if (legal.replace.has(day)) {
      const piles = [...legal.replace.get(day)];
      return piles.length === 1 && game.taken_from > 0 ? { move: `replace ${day} ${piles[0]}` } : { select: day };
    }
  }
  if (payload.from === "hand" && pile !== null && legal.discard.has(pile)) return { move: `discard ${pile}` };
  if (payload.from === "pile" && day !== null && legal.take.has(payload.pile)) {
    return { move: `take ${payload.pile}`, selectAfter: day };
  }
  if (payload.from === "day" && day !== null && day !== payload.day && canSwap(legal, payload.day, day)) {
    return { move: `swap ${payload.day} ${day}` };
  }
  if (payload.from === "day" && pile !== null && (legal.replace.get(payload.day) || new Set()).has(pile)) {
    return { move: `replace ${payload.day} ${pile}` };
  }
  return null;
}

window.addEventListener("pointermove", (event) => {
  if (!drag || event.pointerId !== drag.pointer) return;
  if (!drag.ghost) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
    const rect = drag.node.getBoundingClientRect();
    drag.ghost = drag.node.cloneNode(true);
    drag.ghost.classList.add("ghost");
    drag.ghost.style.width = `${rect.width}px`;
    drag.offset = { x: drag.x - rect.left, y: drag.y - rect.top };
    $("drag-layer").append(drag.ghost);
    document.body.classList.add("dragging");
    for (const target of document.querySelectorAll("[data-drop-day], [data-drop-pile]")) {
      if (dropAction(drag.payload, target)) target.classList.add("drop-ok");
    }
  }
  event.preventDefault();
  drag.ghost.style.transform = `translate(${event.clientX - drag.offset.x}px, ${event.clientY - drag.offset.y}px)`;
  for (const node of document.querySelectorAll(".drop-over")) node.classList.remove("drop-over");
  const target = dropTargetAt(event.clientX, event.clientY);
  if (target && target.classList.contains("drop-ok")) target.classList.add("drop-over");
}, { passive: false });

function endDrag(event, cancelled) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const current = drag;
  drag = null;
  if (!current.ghost) return; // it was a click
  current.ghost.remove();
  document.body.classList.remove("dragging");
  for (const node of document.querySelectorAll(".drop-ok, .drop-over")) node.classList.remove("drop-ok", "drop-over");
  swallowClick = true;
  setTimeout(() => { swallowClick = false; }, 0);
  if (cancelled) return;
  const action = dropAction(current.payload, dropTargetAt(event.clientX, event.clientY));
  if (!action) return;
  if (action.select) {
    ui.selectedDay = action.select;
    render();
  } else {
    ui.selectAfterTake = action.selectAfter ?? null;
    send(action.move);
  }
}

window.addEventListener("pointerup", (event) => endDrag(event, false));
window.addEventListener("pointercancel", (event) => endDrag(event, true));
window.addEventListener("click", (event) => {
  if (swallowClick) {
    event.stopPropagation();
    event.preventDefault();
  }
}, true);

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && ui.selectedDay !== null) {
    ui.selectedDay = null;
    render();
  }
});

// ---------------------------------------------------------------------------------------------
// Starting: the seat token comes from the link (#token=...), else from this device's memory; with
// neither, offer to join or to watch.

function startTable(token) {
  if (ui.connection) ui.connection.close();
  ui.token = token;
  ui.game = null;
  ui.version = -1;
  $("join").hidden = true;
  ui.connection = new TableConnection(gameId, token, { onMessage, onStatus });
  ui.connection.connect();
}

async function offerJoin() {
  $("join").hidden = false;
  $("connection").textContent = "";
  $("join-name").value = remembered.name();
  const summary = $("join-summary");
  const joinButton = $("join-button");
  joinButton.disabled = false;
  try {
    const game = await api(`/api/games/${encodeURIComponent(gameId)}`);
    const free = game.seats.filter((s) => s.kind === "human" && !s.taken).length;
    const players = game.seats.map((s) => (s.kind === "bot" ? `a bot (${s.bot})` : s.taken ? s.name : "a free seat"));
    const editions = await api("/api/editions").catch(() => []);
    const edition = editions.find((e) => e.id === game.edition);
    summary.textContent = `${edition ? edition.name : game.edition}: ${players.join(", ")}.`;
    if (!free || game.status !== "waiting") {
      joinButton.disabled = true;
      $("join-error").textContent = game.status === "over" ? "This game is over; you can still look at it."
        : "Every seat is taken; you can watch.";
    }
  } catch (error) {
    summary.textContent = error.status === 404 ? "There is no such game. Check the link, or start one in the lobby."
      : `The game could not be loaded: ${error.message}`;
    joinButton.disabled = true;
  }
}

$("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const nameInput = $("join-name");
  const joinButton = $("join-button");
  const name = nameInput.value.trim();
  if (!name) {
    $("join-error").textContent = "Please enter your name: the other players see it at the table.";
    nameInput.focus();
    return;
  }
  remembered.setName(name);
  joinButton.disabled = true;
  try {
    const answer = await api(`/api/games/${encodeURIComponent(gameId)}/join`, { method: "POST", body: { name } });
    remembered.setSeat(answer.id, answer.token, { seat: answer.seat });
    history.replaceState(null, "", `${playPath(gameId)}#token=${encodeURIComponent(answer.token)}`);
    startTable(answer.token);
  } catch (error) {
    $("join-error").textContent = `You could not join: ${error.message}`;
    joinButton.disabled = false;
  }
});

$("spectate-button").addEventListener("click", () => {
  history.replaceState(null, "", `${playPath(gameId)}#spectate`);
  startTable(null);
});

$("hint-button").addEventListener("click", askHint);
$("error-close").addEventListener("click", hideError);

function start() {
  const params = new URLSearchParams(location.hash.slice(1));
  const fromLink = params.get("token");
  if (fromLink) {
    remembered.setSeat(gameId, fromLink);
    startTable(fromLink);
  } else if (params.has("spectate")) {
    startTable(null);
  } else if (remembered.token(gameId)) {
    const token = remembered.token(gameId);
    history.replaceState(null, "", `${playPath(gameId)}#token=${encodeURIComponent(token)}`);
    startTable(token);
  } else {
    offerJoin();
  }
}

start();

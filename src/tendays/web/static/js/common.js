// Shared helpers for the lobby and the table: DOM building, the REST API, and what the browser remembers.

import { csrfHeaders, sessionChanged } from "./account_session.js";
import { currentLanguage, t, tn } from "./i18n.js";

/** Build an element: el("button", {class: "x", onclick: f, "aria-label": "..."}, "text", child, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    // through the CSSOM: the pages' Content-Security-Policy refuses style attributes
    else if (key === "style") node.style.cssText = String(value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Build an SVG element with attributes. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "style") node.style.cssText = String(value);  // as in el()
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An error answered by the server, with its message in the game's words. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function detailText(detail) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail.map((d) => (d && d.msg ? `${(d.loc || []).slice(1).join(".")}: ${d.msg}` : String(d))).join("; ");
  }
  return detail ? JSON.stringify(detail) : "";
}

/** Call the REST API; returns the decoded JSON (null for an empty answer) or throws an ApiError whose message
 * is the server's. `headers`: more request headers (a signed-in session's X-CSRF-Token). */
export async function api(path, { method = "GET", body, headers = {} } = {}) {
  const csrf = method === "GET" ? {} : await csrfHeaders(); // a signed-in browser's changes carry its token
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: { "Accept-Language": currentLanguage(), ...csrf, ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, t("api.unreachable"));
  }
  let data;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    if (response.status === 403 && method !== "GET" && await sessionChanged()) {
      throw new ApiError(403, t("api.session_changed"));
    }
    const text = detailText(data && (data.detail ?? data.message));
    throw new ApiError(response.status, text || t("api.status", { status: response.status, text: response.statusText }));
  }
  return data;
}

// What the browser remembers: the player's display name, and the seat token of each game joined here.
const NAME_KEY = "tendays.name";
const GAMES_KEY = "tendays.games";
const MUTED_KEY = "tendays.muted";

function readJson(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key) || "null");
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

export const remembered = {
  name() {
    return localStorage.getItem(NAME_KEY) || "";
  },
  setName(name) {
    if (name) localStorage.setItem(NAME_KEY, name);
  },
  /** {gameId: {token, seat, edition, joined}} for the games this browser holds a seat in. */
  games() {
    return readJson(GAMES_KEY, {});
  },
  token(gameId) {
    const game = this.games()[gameId];
    return game ? game.token : null;
  },
  setSeat(gameId, token, extra = {}) {
    const games = this.games();
    games[gameId] = { ...(games[gameId] || {}), ...extra, token, joined: Date.now() };
    localStorage.setItem(GAMES_KEY, JSON.stringify(games));
  },
  /** The seats whose chat is hidden in a game, on this device. */
  muted(gameId) {
    const muted = readJson(MUTED_KEY, {})[gameId];
    return Array.isArray(muted) ? muted : [];
  },
  setMuted(gameId, seats) {
    const all = readJson(MUTED_KEY, {});
    if (seats.length) all[gameId] = seats;
    else delete all[gameId];
    localStorage.setItem(MUTED_KEY, JSON.stringify(all));
  },
  forget(gameId) {
    const games = this.games();
    delete games[gameId];
    localStorage.setItem(GAMES_KEY, JSON.stringify(games));
  },
};

/**
 * A sentence of the server's shown on its own (a refusal, a hint): capitalised, with a full stop. The server
 * writes them to fit after a colon too ("You could not join: the game is full").
 */
export function sentence(text) {
  const trimmed = String(text || "").trim();
  if (!trimmed) return "";
  const first = trimmed[0].toLocaleUpperCase(currentLanguage()) + trimmed.slice(1);
  return /[.!?…]$/u.test(first) ? first : `${first}.`;
}

/** Put `value` into an input unless the person has already typed there (a page may still be loading). */
export function fillIfEmpty(input, value) {
  if (!input.value) input.value = value;
}

/** Mark the page as wired: its controls work from now on (tests and tools wait for `body[data-ready]`). */
export function markReady() {
  document.body.dataset.ready = "true";
}

/** The seat link path of a game, without the token. */
export function playPath(gameId) {
  return `/play/${encodeURIComponent(gameId)}`;
}

/** A duration in seconds as the clock shows it: "0:42", "12:05", "1 h 05", "2 days". */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 2 * 86400) return tn("time.days", Math.floor(s / 86400));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A game's pace in words, from its `pace` or `clock` ({kind, per_move, bank}); "" for none. */
export function paceText(pace) {
  if (!pace) return "";
  const each = pace.per_move >= 3600 ? clockText(pace.per_move) : `${pace.per_move} s`;
  if (pace.kind === "correspondence") return t("pace.correspondence", { each });
  return pace.bank ? t("pace.live_bank", { each, bank: clockText(pace.bank) }) : t("pace.live", { each });
}

/** A short "3 minutes ago" for timestamps (ISO strings or seconds since the epoch). */
export function timeAgo(created) {
  if (created === undefined || created === null) return "";
  const when = typeof created === "number" ? created * (created < 1e12 ? 1000 : 1) : Date.parse(created);
  if (Number.isNaN(when)) return "";
  const seconds = Math.max(0, Math.round((Date.now() - when) / 1000));
  if (seconds < 60) return t("ago.now");
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t("ago.minutes", { n: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return t("ago.hours", { n: hours });
  return tn("ago.days", Math.round(hours / 24));
}

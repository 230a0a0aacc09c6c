// /tv: the best-rated game being played now, watched exactly as any spectator watches it (the table page in its
// watching mode; the server chooses the game: GET /api/tv). When the game ends its result stays on the table
// for a few seconds, counted down on the banner, then the page follows the next best game; while none is being
// played the banner says so and asks again, counted down too.

import { el } from "../shared/dom.js";
import { decimal, t } from "../shared/i18n.js";
import { MatchStatus } from "../shared/protocol.js";
import { api } from "../shared/rest.js";

/** Seconds the result of an ended game stays on the screen. */
const RESULT_S = 10;
/** Seconds between two questions for a game while none is being played. */
const AGAIN_S = 15;

const $ = (id) => document.getElementById(id);

/** Whether this page is /tv (the table page serves both). */
export function onTv() {
  return location.pathname === "/tv";
}

/** The banner under the top bar: what is shown, and the countdown to what comes next. */
function banner() {
  if (!$("tv-banner")) {
    const part = el("section", { id: "tv-banner", class: "tv-banner", "aria-labelledby": "tv-title" },
      el("h1", { id: "tv-title" }, t("tv.title")),
      el("p", { id: "tv-said", role: "status" }),
      el("p", { id: "tv-countdown", class: "tv-countdown", role: "timer", "aria-live": "off" }));
    document.querySelector("header").after(part);
  }
  return $("tv-banner");
}

/** Count `seconds` down on the banner, each second in the words of `key`; resolves at zero. */
function countdown(seconds, key) {
  return new Promise((resolve) => {
    let left = seconds;
    const tick = () => {
      $("tv-countdown").textContent = t(key, { seconds: left });
      if (left <= 0) {
        resolve();
        return;
      }
      left -= 1;
      setTimeout(tick, 1000);
    };
    tick();
  });
}

function seatText(seat) {
  const name = seat.name || "—";
  return seat.rating === null ? name : `${name} (${decimal(seat.rating)})`;
}

/** The game to watch: asked of the server until one is being played; meanwhile the banner says none is. */
export async function tvGame() {
  document.title = t("tv.page_title");
  banner();
  for (;;) {
    const chosen = await api("/api/tv").catch(() => null);
    if (chosen && chosen.game) {
      $("tv-said").textContent = t("tv.showing", { players: chosen.seats.map(seatText).join(" · ") });
      $("tv-countdown").textContent = "";
      document.body.dataset.tvGame = chosen.game; // for anyone (tests, tools) that waits for the next game
      return chosen.game;
    }
    $("tv-said").textContent = t("tv.none");
    $("connection").textContent = ""; // nothing to connect to until a game is chosen
    await countdown(AGAIN_S, "tv.again_in");
  }
}

/** Follow the next game once this one is over (or gone): its result stays for a while, then the page starts
 * again with the next best game. */
export function followTv(store) {
  let ending = false;
  const next = async (key) => {
    if (ending) return;
    ending = true;
    $("tv-said").textContent = t(key);
    await countdown(RESULT_S, "tv.next_in");
    location.reload();
  };
  store.subscribe((state) => {
    if (state.game && state.game.status === MatchStatus.OVER) next("tv.over");
  });
  return () => next("tv.gone");
}

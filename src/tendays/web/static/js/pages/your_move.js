// The lobby's "Your move": the signed-in person's correspondence games that wait for their move
// (GET /api/games/your-move), the nearest deadline first, each a link to its table. Read again when a
// notification arrives on the page or the unread count changes (inbox_bar.js), and every minute; hidden when there
// is none.

import { signedIn } from "../shared/account_session.js";
import { el } from "../shared/dom.js";
import { clockText, playPath } from "../shared/format.js";
import { list, startLanguage, t } from "../shared/i18n.js";
import { api } from "../shared/rest.js";

const REFRESH_MS = 60000;

await startLanguage();
const box = document.getElementById("your-move");
const games = document.getElementById("your-move-list");

function item(game) {
  const left = game.deadline === null ? "" : t("your_move.left", { time: clockText(game.deadline - Date.now() / 1000) });
  return el("li", { class: "game-item", "data-your-move": game.game },
    el("a", { href: playPath(game.game) }, t("your_move.against", { names: list(game.opponents) })),
    " ", el("span", { class: "muted small deadline" }, left));
}

async function show() {
  try {
    const answer = await api("/api/games/your-move");
    games.replaceChildren(...answer.games.map(item));
    box.hidden = answer.games.length === 0;
  } catch {
    // signed out meanwhile, or the server is away: the list stays as it was
  }
}

if (box && (await signedIn())) {
  await show();
  document.addEventListener("tendays:notification", show);
  document.addEventListener("tendays:unread", show); // a turn ended elsewhere: its notice was read
  setInterval(show, REFRESH_MS);
}

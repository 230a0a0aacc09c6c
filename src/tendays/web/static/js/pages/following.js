// The players one follows (/following): each with their rating, whether they are online, and the game they
// are playing with a link to watch it; those playing first, then those online. Asked again every half
// minute, so the page stays true while it is open.

import { editionName, ratingText } from "../players/words.js";
import { el, markReady } from "../shared/dom.js";
import { playPath, sentence } from "../shared/format.js";
import { startLanguage, t } from "../shared/i18n.js";
import { preferences } from "../shared/preferences.js";
import { api, ApiError } from "../shared/rest.js";
import { whoBar } from "../shared/who.js";

const $ = (id) => document.getElementById(id);
const AGAIN_MS = 30_000;

await startLanguage();
document.title = t("follow.page_title");
$("preferences").replaceWith(preferences());
whoBar().then((bar) => $("who").replaceWith(bar));
const editions = await api("/api/editions").catch(() => []);

/** What the player is doing now: playing (with a link that watches their game), online, or neither. */
function nowCell(player) {
  if (player.playing) {
    return el("td", { class: "following-now" }, el("span", {}, t("follow.playing")), " ",
      el("a", { href: `${playPath(player.playing)}#spectate`, class: "watch-link",
        "aria-label": t("follow.watch_label", { name: player.name }) }, t("follow.watch")));
  }
  return el("td", { class: "following-now" }, player.online ? t("follow.online") : t("follow.offline"));
}

function row(player) {
  const rating = player.rating === null ? "—"
    : `${ratingText(player.rating)} (${editionName(editions, player.edition)})`;
  return el("tr", { dataset: { name: player.name } },
    el("td", {}, el("a", { href: `/players/${encodeURIComponent(player.name)}` }, player.name)),
    el("td", {}, rating), nowCell(player));
}

async function load() {
  let list;
  try {
    list = (await api("/api/following")).following;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      $("following-signed-out").hidden = false;
      return false;
    }
    $("following-error").textContent = sentence(error instanceof ApiError ? error.message : String(error));
    return true;
  }
  $("following-error").textContent = "";
  $("following").replaceChildren(...list.map(row));
  $("following-table").hidden = list.length === 0;
  $("following-empty").hidden = list.length > 0;
  return true;
}

if (await load()) setInterval(load, AGAIN_MS);
markReady();

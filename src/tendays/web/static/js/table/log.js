// The game log: the server's words for every event, newest last. New entries are appended; the list is
// drawn anew only when earlier entries changed (a player's name became known) or the viewer did.

import { el } from "../shared/dom.js";
import { panel, sameData } from "./panel.js";
import { people } from "./tiles.js";

const SHOWN = 200; // the newest entries kept on the page

export function logPanel() {
  let shown = []; // the log as last drawn
  let shownYou = null;
  return panel((state) => ({ log: state.game.log || [], seats: state.game.seats, you: state.game.you }),
    ({ log, seats, you }) => {
      const node = document.getElementById("log");
      const names = people(seats, you);
      const item = (entry) => el("li", {
        class: `log-${entry.kind}${entry.player !== null && entry.player !== undefined && names.isMe(entry.player)
          ? " mine" : ""}`,
      }, entry.text);
      const atBottom = node.scrollTop + node.clientHeight >= node.scrollHeight - 8;
      const grows = you === shownYou && shown.length <= log.length
        && shown.every((entry, i) => sameData(entry, log[i]));
      if (grows) node.append(...log.slice(Math.max(shown.length, log.length - SHOWN)).map(item));
      else node.replaceChildren(...log.slice(-SHOWN).map(item));
      while (node.children.length > SHOWN) node.firstElementChild.remove();
      shown = log;
      shownYou = you;
      if (atBottom || node.dataset.filled !== "1") node.scrollTop = node.scrollHeight;
      node.dataset.filled = "1";
    });
}

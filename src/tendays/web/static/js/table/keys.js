// Playing by keyboard alone: every control is a button (Tab and Enter reach it), and single keys go
// straight to the rack's days and the piles. The keys are listed on the page ("Keys") and in docs/web.md.
//
//   1-9, 0   the rack's day 1-9 and 10 (draft onto it, choose it to replace or to swap)
//   d        draw from the draw pile
//   q w e    discard pile 1, 2, 3: take its tile, or discard onto it
//   h        hint          c   write in the chat          Escape   cancel the chosen day (pages/table.js)

const PILES = "qwe";

/** The button a key stands for now, or null. */
export function buttonForKey(key, root = document) {
  if (/^[0-9]$/.test(key)) {
    const day = key === "0" ? 10 : Number(key);
    return root.querySelector(`#rack .day[data-day='${day}']`);
  }
  if (key === "d") return root.querySelector(".draw-pile button");
  if (key.length === 1 && PILES.includes(key)) {
    return root.querySelector(`.discard-pile[data-pile='${PILES.indexOf(key) + 1}'] button`);
  }
  if (key === "h") return root.getElementById("hint-button");
  return null;
}

export function installKeys() {
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
    const target = event.target;
    if (target instanceof Element && target.closest("input, textarea, select, [contenteditable]")) return;
    if (document.getElementById("table").hidden) return;
    const key = event.key.toLowerCase();
    if (key === "c") {
      const input = document.getElementById("chat-input");
      if (input.offsetParent !== null) {
        event.preventDefault();
        input.focus();
      }
      return;
    }
    const button = buttonForKey(key);
    if (!button || button.disabled || button.hidden || button.offsetParent === null) return;
    event.preventDefault();
    button.focus(); // the focus ring shows where the key went; the next move starts from there
    button.click();
  });
}

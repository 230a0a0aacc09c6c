// The reader's choices on this device, shown in the top bar of every page: the language and the palette
// (the edition's own colours, or the palette for colour-blind players). Both are remembered and both
// show the page again when changed.

import { el } from "./dom.js";
import { chooseLanguage, currentLanguage, languages, t } from "./i18n.js";

const PALETTE_KEY = "tendays.palette";

/** Whether this person chose the colour-blind palette on this device. */
export function colourBlindPalette() {
  try {
    return localStorage.getItem(PALETTE_KEY) === "cb";
  } catch {
    return false;
  }
}

function choosePalette(colourBlind) {
  try {
    localStorage.setItem(PALETTE_KEY, colourBlind ? "cb" : "normal");
  } catch {
    // no storage: nothing to remember
  }
  location.reload();
}

/** The language menu and the palette switch, for the top bar. */
export function preferences() {
  const known = languages();
  const select = el("select", { id: "language", "aria-label": t("prefs.language"),
    onchange: (event) => chooseLanguage(event.target.value) },
  Object.entries(known).map(([code, name]) => el("option", { value: code, lang: code,
    selected: code === currentLanguage() }, name)));
  const palette = el("input", { type: "checkbox", id: "palette-cb", checked: colourBlindPalette(),
    onchange: (event) => choosePalette(event.target.checked) });
  return el("div", { class: "preferences" },
    el("label", { class: "pref" }, el("span", { class: "visually-hidden" }, t("prefs.language")), select),
    el("label", { class: "pref", title: t("prefs.palette_title") }, palette, ` ${t("prefs.palette")}`));
}

// The browser's words in the reader's language: one message catalogue per language
// (/static/i18n/LANG.json), plural forms by the browser's own Intl.PluralRules, and the language the
// person chose (remembered on this device), else the browser's, else English. docs/i18n.md.
//
// A message is a string with named placeholders ("Day {day}"), or, for a number before a noun, an object of
// plural forms keyed by Intl.PluralRules categories ({"one": "{n} tile", "other": "{n} tiles"}).

const LANG_KEY = "tendays.lang";
const FALLBACK = "en";

let language = FALLBACK;
let messages = {};
let fallback = {};
let plurals = new Intl.PluralRules(FALLBACK);
let known = { en: "English" };

/** The language the page speaks now ("en", "de"). */
export function currentLanguage() {
  return language;
}

/** The shipped catalogues, {code: name in that language}. */
export function languages() {
  return known;
}

/** Use a catalogue already loaded (tests, Node): `messages` for `lang`, `english` for anything it lacks. */
export function setCatalogue(lang, catalogue, english = catalogue) {
  language = lang;
  messages = catalogue;
  fallback = english;
  plurals = new Intl.PluralRules(lang);
}

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The message `key` in the current language, its {placeholders} filled from `params`. */
export function t(key, params = {}) {
  const entry = messages[key] ?? fallback[key];
  if (entry === undefined) return key;
  if (typeof entry === "string") return fill(entry, params);
  return tn(key, params.n ?? 0, params);
}

/** A bot level's word ("leicht" for easy), or a particular bot's ("gierig" for greedy); else the name itself. */
export function levelWord(level) {
  const key = [`level.${level}`, `bot.${level}`].find((k) => k in messages || k in fallback);
  return key ? t(key) : level;
}

/** What a particular bot does, in the reader's words; `said` (the server's English) when no catalogue has it. */
export function botAbout(name, said) {
  const key = `bot_about.${name}`;
  return key in messages || key in fallback ? t(key) : said;
}

/** The form of message `key` for the number `n` ("1 Plättchen", "2 Plättchen"); `n` fills {n}. */
export function tn(key, n, params = {}) {
  const entry = messages[key] ?? fallback[key];
  if (entry === undefined) return key;
  if (typeof entry === "string") return fill(entry, { n, ...params });
  const form = entry[plurals.select(n)] ?? entry.other ?? Object.values(entry)[0];
  return fill(form, { n, ...params });
}

/** A number with `digits` decimals as the reader writes it: "18.1" in English, "18,1" in German. */
export function decimal(value, digits = 1) {
  return new Intl.NumberFormat(language, { minimumFractionDigits: digits, maximumFractionDigits: digits })
    .format(value);
}

/** A date in the reader's one style ("12/4/2026", "4.12.2026"): a Date, milliseconds or an ISO 8601 time, in
 * the reader's time zone, or a day as "YYYY-MM-DD" (the daily puzzle's), which is that day wherever the reader is. */
export function dateText(when) {
  if (typeof when === "string" && /^\d{4}-\d{2}-\d{2}$/.test(when)) {
    return new Date(`${when}T00:00:00Z`).toLocaleDateString(language, { timeZone: "UTC" });
  }
  return new Date(when).toLocaleDateString(language);
}

/** A list in words: "3, 5 and 8" / "3, 5 und 8". */
export function list(items) {
  return new Intl.ListFormat(language, { style: "long", type: "conjunction" }).format(items.map(String));
}

/** The language this person chose on this device, or null. */
export function chosenLanguage() {
  try {
    return localStorage.getItem(LANG_KEY);
  } catch {
    return null;
  }
}

/** The first of the browser's languages with a catalogue, or null. */
export function browserLanguage(available = known) {
  for (const tag of navigator.languages || [navigator.language]) {
    const primary = String(tag || "").split(/[-_]/)[0].toLowerCase();
    if (primary in available) return primary;
  }
  return null;
}

async function fetchJson(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

let started = null; // the promise of the first startLanguage(): the page's modules share one load

/**
 * Load the catalogue of the reader's language, the one rule of every page: the language chosen on this device,
 * else the browser's, else English (whatever the edition's language). Sets the page's `lang` and translates it.
 * Once per page: every module of the page that asks waits for the same load.
 */
export function startLanguage() {
  started ??= loadLanguage();
  return started;
}

async function loadLanguage() {
  try {
    known = await fetchJson("/static/i18n/languages.json");
  } catch {
    known = { en: "English" };
  }
  const wanted = [chosenLanguage(), browserLanguage(known), FALLBACK].find((l) => l && l in known);
  const english = await fetchJson(`/static/i18n/${FALLBACK}.json`).catch(() => ({}));
  const catalogue = wanted === FALLBACK ? english : await fetchJson(`/static/i18n/${wanted}.json`).catch(() => null);
  setCatalogue(catalogue ? wanted : FALLBACK, catalogue || english, english);
  document.documentElement.lang = language;
  translatePage();
  return language;
}

/**
 * Translate the page's fixed text: `data-i18n="key"` sets an element's text, `data-i18n-attr="attr:key; ..."`
 * its attributes (placeholders, labels, titles).
 */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) node.setAttribute(attr, t(key));
    }
  }
}

/** Remember `lang` as this person's choice and show the page again in it. */
export function chooseLanguage(lang) {
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch {
    // private browsing without storage: the choice lasts for this page only
  }
  location.reload();
}

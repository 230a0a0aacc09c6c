// The guided first game: the table's own panels (rack, piles, map) around a lesson panel that says what to
// do, points at it, and shows why another move is not the lesson's. The server walks the lesson and judges
// every move (the page knows no rule and never sees the lesson's moves); this page keeps the step reached in
// local storage, so the lesson goes on where it stopped.

import { learnMemory } from "../learn/memory.js";
import { el, markReady } from "../shared/dom.js";
import { loadEdition } from "../shared/edition.js";
import { currentLanguage, startLanguage, t } from "../shared/i18n.js";
import { colourBlindPalette, preferences } from "../shared/preferences.js";
import { api } from "../shared/rest.js";
import { errorPanel, headerPanel, turnPanel } from "../table/banner.js";
import { installDrag } from "../table/drag.js";
import { endPanel, mapPanel } from "../table/journey.js";
import { pilesPanel } from "../table/piles.js";
import { rackPanel } from "../table/rack.js";
import { createTableState } from "../table/state.js";

const $ = (id) => document.getElementById(id);

await startLanguage();
$("preferences").replaceWith(preferences());

const store = createTableState();
let lesson = null; // the step on screen, less its game
let edition = null; // the edition id of the lesson on screen
let wrong = "";

function showError(message) {
  store.update({ error: message, busy: false });
}

const actions = {
  move(text) {
    if (!lesson || store.state.busy) return;
    store.update({ busy: true });
    api(`/api/learn/${edition}/steps/${lesson.number}`, { method: "POST", body: { move: text } }).then((answer) => {
      if (answer.ok) {
        wrong = "";
        show(answer.step);
      } else {
        wrong = answer.message;
        store.update({ busy: false, selectedDay: null });
      }
    }, (error) => showError(error.message));
  },
  select(day) {
    store.update({ selectedDay: day });
  },
  showError,
  hideError() {
    store.update({ error: null });
  },
  showOnMap(seat) {
    store.update({ mapSeat: seat });
  },
};

/** Put a step on screen and remember it. */
function show(step) {
  const { game, ...rest } = step;
  lesson = rest;
  const memory = learnMemory.read();
  learnMemory.write({ edition, steps: { ...memory.steps, [edition]: step.number },
    finished: memory.finished || step.done });
  store.update({ game, version: step.number, busy: false, selectedDay: null, error: null,
    hint: step.map_days.length ? { days: step.map_days, message: "" } : null });
}

async function open(editionId, number) {
  edition = editionId;
  wrong = "";
  $("lesson-edition").value = editionId;
  const [step, loaded] = await Promise.all([
    api(`/api/learn/${editionId}/steps/${number}`).catch(() => api(`/api/learn/${editionId}/steps/0`)),
    loadEdition(editionId, api, { colourBlind: colourBlindPalette() }),
  ]);
  store.update({ edition: loaded.edition, geometry: loaded.geometry });
  show(step);
}

function lessonPanel() {
  $("lesson-progress").textContent = lesson.done ? t("learn.finished")
    : t("learn.step", { step: lesson.number + 1, total: lesson.total });
  $("lesson-news").replaceChildren(...lesson.news.slice(-4).map((line) => el("li", {}, line)));
  $("lesson-explain").replaceChildren(...lesson.lessons.map((text) => el("p", {}, text)));
  $("lesson-do").textContent = lesson.instruction;
  $("lesson-why").textContent = lesson.why ? t("learn.why", { why: lesson.why }) : "";
  $("lesson-wrong").textContent = wrong;
  $("lesson-play").hidden = !lesson.done;
  $("lesson-skip").hidden = lesson.done;
}

let pointedAt = ""; // the step and the part of the table ringed last

/** The ring around the part of the table the step is about; a replacement's pile once its day is chosen. */
function pointPanel(state) {
  for (const node of document.querySelectorAll(".learn-point")) node.classList.remove("learn-point");
  const pointer = lesson.done ? null : lesson.pointer;
  if (!pointer) return;
  let selector = null;
  if (pointer.area === "rack" && pointer.pile && state.selectedDay === pointer.day) {
    selector = `.discard-pile[data-pile='${pointer.pile}']`;
  } else if (pointer.area === "rack") selector = `#rack .day[data-day='${pointer.day}']`;
  else if (pointer.area === "draw") selector = ".draw-pile";
  else if (pointer.area === "pile") selector = `.discard-pile[data-pile='${pointer.pile}']`;
  const target = selector && document.querySelector(selector);
  if (!target) return;
  target.classList.add("learn-point");
  const at = `${lesson.number} ${selector}`;
  if (at === pointedAt) return;
  pointedAt = at;
  // Something new to look at: bring it into view, scrolling as little as will do, if it is off the screen.
  const box = target.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) target.scrollIntoView({ block: "nearest" });
}

const drag = installDrag(store, actions);
const panels = [headerPanel(), turnPanel("learn"), pilesPanel(actions, drag), rackPanel(store, actions, drag),
  mapPanel(), endPanel(actions)];
const errors = errorPanel();

store.subscribe((state) => {
  errors(state);
  const ready = Boolean(state.game && state.edition && state.edition.id === state.game.edition && lesson);
  $("table").hidden = !ready;
  if (!ready) return;
  document.body.dataset.version = String(state.version);
  for (const draw of panels) draw(state);
  lessonPanel();
  pointPanel(state);
});

$("error-close").addEventListener("click", actions.hideError);
$("lesson-restart").addEventListener("click", () => {
  api(`/api/learn/${edition}/steps/0`).then(show, (error) => showError(error.message));
  wrong = "";
});
$("lesson-skip").addEventListener("click", () => {
  learnMemory.write({ skipped: true });
  location.assign("/");
});
$("lesson-edition").addEventListener("change", (event) => {
  open(event.target.value, learnMemory.read().steps[event.target.value] || 0).catch((e) => showError(e.message));
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && store.state.selectedDay !== null) actions.select(null);
});

try {
  const { lessons } = await api("/api/learn");
  $("lesson-edition").replaceChildren(...lessons.map((l) => el("option", { value: l.edition }, l.name)));
  const memory = learnMemory.read();
  const asked = new URLSearchParams(location.search).get("edition");
  const chosen = lessons.find((l) => l.edition === asked) || lessons.find((l) => l.edition === memory.edition)
    || lessons.find((l) => l.language === currentLanguage()) || lessons[0];
  await open(chosen.edition, memory.steps[chosen.edition] || 0);
} catch (error) {
  showError(error.message);
}
markReady();

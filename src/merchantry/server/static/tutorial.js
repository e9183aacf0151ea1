// The guided first game: a game's steps (its tutorial.json, served by /api/tutorials/<game>) run over a
// table of its fixed deal. Each step says what to do and why, points at the part of the board it is about
// and goes on when the person plays the move it asks for; another move is explained, not sent.
import { h } from "./dom.js";
import { language, t } from "./i18n.js";

const scripts = new Map();  // game -> its steps
const texts = new Map();  // "game:lang" -> the catalogue's tutorial section
let notice = null;  // { tableId, step, text }: why the last move was not sent, until the step changes
let pointedAt = null;  // { key: "tableId:step", scrolled }: the step last pointed at, and whether the person scrolled since
let latest = null;  // what the last call of show() drew from, to draw again after Next

async function json(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

// Make sure the table's script and texts are at hand before the table is drawn (null: not a tutorial).
export async function load(table) {
  if (!table.tutorial) return null;
  if (!document.querySelector("link[data-tutorial]")) {
    document.head.append(h("link", { rel: "stylesheet", href: "/static/tutorial.css", "data-tutorial": "" }));
  }
  const key = `${table.game}:${language()}`;
  if (!scripts.has(table.game)) scripts.set(table.game, await json(`/api/tutorials/${table.game}`));
  if (!texts.has(key)) texts.set(key, (await json(`/games/${table.game}/locales/${language()}.json`)).tutorial || {});
  return scripts.get(table.game);
}

// A new table of the game's guided first game; `opened(created)` keeps its tokens and shows it.
export async function start(game, name, opened) {
  const response = await fetch(`/api/tutorials/${game}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || response.statusText);
  localStorage.removeItem(`merchantry:tutorial:${body.id}`);
  opened(body);
}

function text(game, key) {
  return (texts.get(`${game}:${language()}`) || {})[key] ?? key;
}

// How far this browser is in the table's lesson: { step, pending, free }
function progressOf(tableId) {
  return JSON.parse(localStorage.getItem(`merchantry:tutorial:${tableId}`) || '{"step": 0}');
}
function keep(tableId, progress) {
  localStorage.setItem(`merchantry:tutorial:${tableId}`, JSON.stringify(progress));
}

// What the seat sees and may do: when it changes after the asked move was sent, the move was played.
function positionOf(payload) {
  return JSON.stringify([payload.view, payload.legal]);
}

// A step's move is awaited on the person's turn only (a move allowed at any time, such as a sale, too):
// the bots' course the lesson describes depends on when it is played.
function awaited(payload, step) {
  const { seat, view, legal } = payload;
  return seat !== null && (view.to_act || []).includes(seat) && legal.includes(step.do);
}

function stepOf(payload) {
  const script = scripts.get(payload.table.game);
  return script ? script.steps[progressOf(payload.table.id).step] : undefined;
}

// The page's move sender, watched over by the lesson: the move a step asks for is sent (and the step goes
// on once the table shows it played); any other move is explained instead of sent.
export function guard(payload, send) {
  const { table } = payload;
  if (!table.tutorial || !scripts.has(table.game)) return send;
  return (move) => {
    const progress = progressOf(table.id);
    const step = stepOf(payload);
    if (!step || progress.free || table.status !== "playing") return send(move);
    if (step.finish) {  // playing a move here is choosing to play on
      keep(table.id, { ...progress, free: true });
      return send(move);
    }
    if (step.do === undefined) return explain(table.id, progress.step, t("tutorialReadFirst"));
    if (!awaited(payload, step)) return explain(table.id, progress.step, t("tutorialWaiting"));
    if (move !== step.do) return explain(table.id, progress.step, step.wrong ? text(table.game, step.wrong) : t("tutorialReadFirst"));
    keep(table.id, { ...progress, pending: positionOf(payload) });
    notice = null;
    return send(move);
  };
}

function explain(tableId, step, words) {
  notice = { tableId, step, text: words };
  redraw();
}

function redraw() {
  if (latest && latest.area.isConnected) show(...latest.args);
}

// The person is to act alone, but not with the move the step asks for: the game left the lesson's path.
// Said only when that lasts (OFF_PATH_MS): an update about someone else's move may come between the asked
// move being sent and its own update.
const OFF_PATH_MS = 2000;
let offPath = null;  // { key: "table:step", since } while it looks so
function leftThePath(payload, progress) {
  const { table, seat, view, legal } = payload;
  const alone = (view.to_act || []).length === 1 && view.to_act[0] === seat;
  if (!alone || !legal.length || progress.pending) {
    offPath = null;
    return false;
  }
  const key = `${table.id}:${progress.step}`;
  if (!offPath || offPath.key !== key) {
    offPath = { key, since: Date.now() };
    setTimeout(redraw, OFF_PATH_MS + 100);
    return false;
  }
  return Date.now() - offPath.since >= OFF_PATH_MS;
}

function advance(tableId, progress) {
  keep(tableId, { step: progress.step + 1 });
  notice = null;
  redraw();
}

// The lesson's panel above the board, and the highlight on what the step is about. `host`: the host token
// (to let a bot finish the game for the person).
export function show(payload, area, host) {
  latest = { area, args: [payload, area, host] };
  const { table, seat, view, legal } = payload;
  const script = scripts.get(table.game);
  if (!table.tutorial || !script) return;
  let progress = progressOf(table.id);
  const watching = seat === null && !progress.bot;  // someone watching the table, not its person
  if (watching && table.status !== "finished") return;
  if (progress.pending && progress.pending !== positionOf(payload)) {  // the asked move was played
    progress = { step: progress.step + 1 };
    keep(table.id, progress);
    notice = null;
  }
  const total = script.steps.length;
  const step = script.steps[progress.step];
  const mine = seat !== null && (view.to_act || []).includes(seat);
  let words;
  let target = null;
  let actions = [];
  if (table.status === "finished") {
    words = text(table.game, script.over);
    actions = [h("a", { class: "button primary", href: "/", id: "tutorial-real-game" }, t("tutorialRealGame"))];
  } else if (seat === null) {
    words = t("tutorialBotPlays");
    offPath = null;
  } else if (progress.free || !step) {
    words = t("tutorialOnYourOwn");
  } else if (step.do !== undefined && !awaited(payload, step)) {
    if (leftThePath(payload, progress)) {  // the table went another way than the lesson's
      keep(table.id, { ...progress, free: true });
      words = t("tutorialLeftPath");
    } else words = t("tutorialWaiting");
  } else {
    offPath = null;
    words = text(table.game, step.text);
    target = step.point ? area.querySelector(step.point) : null;
    if (step.do === undefined && !step.finish) {
      actions = [h("button", { class: "primary", id: "tutorial-next", onclick: () => advance(table.id, progress) }, t("tutorialNext"))];
    }
    if (step.finish) {
      actions = [
        h("button", { id: "tutorial-play-on", onclick: () => { keep(table.id, { ...progress, free: true }); redraw(); } }, t("tutorialPlayOn")),
        host ? h("button", { class: "primary", id: "tutorial-bot-finish", onclick: () => finishWithBot(table, seat, host, script) }, t("tutorialBotFinish")) : null,
      ];
    }
  }
  const counter = table.status === "finished" ? total : Math.min(progress.step + 1, total);
  const said = notice && notice.tableId === table.id && notice.step === progress.step ? notice.text : null;
  const panel = h("section", { id: "tutorial", class: "tutorial", "aria-labelledby": "tutorial-title" },
    h("div", { class: "tutorial-head" },
      h("h2", { id: "tutorial-title" }, t("tutorialTitle")),
      h("span", { class: "muted", id: "tutorial-count" }, t("tutorialStep", { step: counter, total }))),
    h("p", { id: "tutorial-text", "aria-live": "polite" }, words),
    said ? h("p", { id: "tutorial-notice", class: "tutorial-notice", role: "alert" }, said) : null,
    actions.length ? h("div", { class: "tutorial-actions" }, actions) : null);
  const focusedHere = document.activeElement && document.activeElement.closest && document.activeElement.closest("#tutorial");
  const focusedId = focusedHere ? document.activeElement.id : null;
  area.querySelector("#tutorial")?.remove();
  const head = area.querySelector(".table-head");
  if (head) head.after(panel); else area.prepend(panel);
  point(table.id, progress.step, target, panel);
  if (focusedId) {  // keyboard focus stays in the panel, or moves on to what the next step asks to use
    const again = panel.querySelector(`#${focusedId}`);
    if (again) again.focus({ preventScroll: true });
    else if (target && target.matches("button, a[href], input, select, [tabindex]")) target.focus({ preventScroll: true });
    else {
      panel.querySelector("#tutorial-text").setAttribute("tabindex", "-1");
      panel.querySelector("#tutorial-text").focus({ preventScroll: true });
    }
  }
}

// The highlight: one element at a time, brought into view when the window does not show it (out of view,
// scrolled away inside its box, or under the lesson's panel at the window's top): when its step begins, and
// again after an update moved it away, unless the person has scrolled by hand since (never fighting them).
function point(tableId, step, target, panel) {
  for (const node of document.querySelectorAll(".tutorial-target")) node.classList.remove("tutorial-target");
  if (!target) return;
  target.classList.add("tutorial-target");
  // a shape of a drawing is painted over by the later ones: the ringed one goes last, so its ring shows whole
  if (target instanceof SVGElement && target.parentNode && target.parentNode.lastChild !== target) target.parentNode.append(target);
  // looked at once the drawing has settled: a drawing may restore its own boxes' scroll in a timeout
  setTimeout(() => { if (target.isConnected) bringIntoView(`${tableId}:${step}`, target, panel); }, 0);
}

function bringIntoView(key, target, panel) {
  if (!pointedAt || pointedAt.key !== key) pointedAt = { key, scrolled: false };
  else if (pointedAt.scrolled) return;  // the person scrolled during this step: the page follows them
  if (shows(target)) return;
  const free = window.innerHeight - panel.offsetHeight - 16;  // the height the panel leaves
  target.style.scrollMarginTop = `${panel.offsetHeight + 16}px`;
  target.scrollIntoView({ block: target.getBoundingClientRect().height > free ? "start" : "center", inline: "nearest" });
}

// The person scrolling by hand (wheel, touch, keys): the page stops bringing the step's element back.
function scrolledByHand(event) {
  const keys = ["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "];
  if (event.type === "keydown" && !(keys.includes(event.key) && event.target === document.body)) return;
  if (pointedAt) pointedAt.scrolled = true;
}
for (const kind of ["wheel", "touchmove", "keydown"]) window.addEventListener(kind, scrolledByHand, { passive: true });

// Whether the window shows the middle of an element (nothing else drawn over it there).
function shows(node) {
  const box = node.getBoundingClientRect();
  const left = Math.max(box.left, 0), right = Math.min(box.right, window.innerWidth);  // (a wide table)
  const x = (left + right) / 2, y = box.top + Math.min(box.height / 2, 20);
  if (right <= left || y < 0 || y >= window.innerHeight) return false;
  const there = document.elementFromPoint(x, y);
  return there !== null && (there === node || node.contains(there));
}

async function finishWithBot(table, seat, host, script) {
  keep(table.id, { ...progressOf(table.id), free: true, bot: true });
  const response = await fetch(`/api/tables/${table.id}/seats/${seat}/bot`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ host_token: host, bot: script.bots[0] }),
  });
  if (!response.ok) explain(table.id, progressOf(table.id).step, (await response.json().catch(() => ({}))).error || response.statusText);
}

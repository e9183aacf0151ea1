// The guided first game: a game's steps (its tutorial.json, served by /api/tutorials/<game>) run over a
// table of its fixed deal, to the end of the game. Each step says what to do and why, points at the part of
// the board it is about and goes on when the person plays the move (or the moves, such as a bid's cards
// staged on the page and then sent with Bid) it asks for; another move is explained, not sent. A step with
// `until` lets the person play on their own until the table reaches the moment it names (a round, a phase,
// an event in the log), where the next step explains it.
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
  return seat !== null && (view.to_act || []).includes(seat) && legal.includes(asked(step)[0]);
}

// the moves a step asks for, in order: one move, or several the page sends together (a staged bid's cards)
function asked(step) {
  return Array.isArray(step.do) ? step.do : [step.do];
}

// Whether the table has reached the moment a free step waits for: every one of its conditions holds (a
// number: the view's field has reached it; `log`: an event of that type was logged; else the field equals it).
export function reached(view, until) {
  return Object.entries(until).every(([key, want]) => {
    if (key === "log") return (view.log || []).some((event) => event.type === want);
    return typeof want === "number" ? (view[key] ?? -Infinity) >= want : view[key] === want;
  });
}

// a step's element: the first of its selectors the page shows (a staged bid's card, then its Bid button)
function pointedBy(area, step) {
  for (const selector of [].concat(step.point || [])) {
    const found = area.querySelector(selector);
    if (found) return found;
  }
  return null;
}

function stepOf(payload) {
  const script = scripts.get(payload.table.game);
  return script ? script.steps[progressOf(payload.table.id).step] : undefined;
}

// The page's move sender, watched over by the lesson: the move a step asks for is sent (and the step goes
// on once the table shows it played); any other move is explained instead of sent. `drawAgain`: draws the
// table again from this payload (a decision staged on the page and refused leaves the page as it was).
export function guard(payload, send, drawAgain = null) {
  const { table } = payload;
  if (!table.tutorial || !scripts.has(table.game)) return send;
  const guarded = (move) => {
    let progress = progressOf(table.id);
    let step = stepOf(payload);
    if (!step || progress.free || table.status !== "playing") return send(move);
    if (reading(step) && playable(payload, move)) {
      // a move played on a step that is only read (Next), say the one the Hint proposed: the person has
      // read enough. The lesson goes on to its next step that asks for a move or lets them play, and takes
      // the move there (it was refused, the refusal easily missed, and a move from the Hint lost)
      const ahead = nextToAct(scripts.get(table.game), progress.step);
      if (ahead !== null) {
        progress = { step: ahead };
        keep(table.id, progress);
        notice = null;
        step = scripts.get(table.game).steps[ahead];
        setTimeout(redraw, 0);  // the new step's words, whatever comes of the move
      }
    }
    if (step.finish) {  // playing a move here is choosing to play on
      keep(table.id, { ...progress, free: true });
      return send(move);
    }
    if (step.until) return send(move);  // the person plays on their own until the step's moment
    if (step.do === undefined) return explain(table.id, progress.step, t("tutorialReadFirst"));
    if (!awaited(payload, step)) return explain(table.id, progress.step, t("tutorialWaiting"));
    const moves = asked(step);
    const key = `${table.id}:${progress.step}`;
    if (!staged || staged.key !== key) staged = { key, moves: [] };
    if (staged.moves === null) return undefined;  // the rest of a decision already refused
    if (move !== moves[staged.moves.length]) {
      // a wrong card or a card missing: nothing of the decision is sent (its other moves, coming in the same
      // click, neither), the hand is whole again
      staged.moves = null;
      setTimeout(() => {
        if (staged && staged.moves === null) staged = null;
        if (drawAgain && moves.length > 1) drawAgain();  // the page's staged cards back in the hand
      }, 0);
      return explain(table.id, progress.step, step.wrong ? text(table.game, step.wrong) : t("tutorialReadFirst"));
    }
    staged.moves.push(move);
    if (staged.moves.length < moves.length) {
      // the rest of the decision comes in the same click (the page's Bid sends its staged cards and the bid
      // at once; a whole move typed goes to the lesson at once). A first part alone (a card clicked in the
      // moves list, where Bid is not a move yet) was held for a rest that never came: it is let go, and the
      // step says how to make the move whole
      const held = staged;
      setTimeout(() => {
        if (staged !== held || held.moves === null) return;
        staged = null;
        explain(table.id, progress.step, t("tutorialWhole", { move: moves.join(" · ") }));
      }, 0);
      return undefined;
    }
    const all = staged.moves;
    staged = null;
    keep(table.id, { ...progress, pending: positionOf(payload) });
    notice = null;
    for (const each of all) send(each);
    return undefined;
  };
  // a whole decision typed at once ("add X · bid", as the Hint writes it) on a step of the lesson:
  // its moves go to the lesson together, as the page's Bid sends a staged bid (one by one, each waiting for
  // the table to show the one before it, the first was held for the rest and the rest never came). False:
  // the lesson does not watch this move (the page sends it step by step as anywhere else).
  guarded.whole = (moves) => {
    const progress = progressOf(table.id);
    const step = stepOf(payload);
    if (!step || progress.free || table.status !== "playing" || step.until || step.finish) return false;
    if (reading(step) && !playable(payload, moves[0])) return false;
    for (const move of moves) guarded(move);
    return true;
  };
  return guarded;
}

// a step that is only read: it goes on with Next
function reading(step) {
  return step.do === undefined && !step.until && !step.finish;
}

// whether the person may play this move now (on their turn, a legal move): the server would take it
function playable(payload, move) {
  const { seat, view, legal } = payload;
  return seat !== null && (view.to_act || []).includes(seat) && legal.includes(move);
}

// the first step after `from` that asks for a move or lets the person play (null: none)
function nextToAct(script, from) {
  for (let at = from + 1; at < script.steps.length; at++) {
    if (!reading(script.steps[at])) return at;
  }
  return null;
}
// the moves of a step that asks for several (sent together by the page, as a staged bid's cards and Bid),
// held back until the last of them has come: a decision is sent whole or not at all
let staged = null;  // { key: "table:step", moves }

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
  // a free step whose moment has come gives way to the next step, which explains it
  while (table.status !== "finished" && script.steps[progress.step]?.until && !progress.free
    && reached(view, script.steps[progress.step].until)) {
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
    // the lobby opens with this game chosen and Easy bots in the seats: the level for a first real game
    const lobby = `/?game=${encodeURIComponent(table.game)}&level=easy`;
    actions = [h("a", { class: "button primary", href: lobby, id: "tutorial-real-game" }, t("tutorialRealGame"))];
  } else if (seat === null) {
    words = t("tutorialBotPlays");
    offPath = null;
  } else if (progress.free || !step) {
    words = t("tutorialOnYourOwn");
  } else if (step.until) {  // the person plays on their own, the hint at hand, or leaves the rest to a bot
    offPath = null;
    words = text(table.game, step.text);
    target = pointedBy(area, step);
    if (host) actions = [h("button", { id: "tutorial-bot-finish", onclick: () => finishWithBot(table, seat, host, script) }, t("tutorialBotFinish"))];
  } else if (step.do !== undefined && !awaited(payload, step)) {
    if (leftThePath(payload, progress)) {  // the table went another way than the lesson's
      keep(table.id, { ...progress, free: true });
      words = t("tutorialLeftPath");
    } else words = t("tutorialWaiting");
  } else {
    offPath = null;
    words = text(table.game, step.text);
    target = pointedBy(area, step);
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
  // over, the lesson says so: "Step 13 of 13" stood both on its last step and at the end, with other words
  const counter = Math.min(progress.step + 1, total);
  const count = table.status === "finished" ? t("tutorialComplete") : t("tutorialStep", { step: counter, total });
  const said = notice && notice.tableId === table.id && notice.step === progress.step ? notice.text : null;
  const panel = h("section", { id: "tutorial", class: "tutorial", "aria-labelledby": "tutorial-title" },
    h("div", { class: "tutorial-head" },
      h("h2", { id: "tutorial-title" }, t("tutorialTitle")),
      h("span", { class: "muted", id: "tutorial-count" }, count)),
    h("p", { id: "tutorial-text", "aria-live": "polite" }, words),
    said ? h("p", { id: "tutorial-notice", class: "tutorial-notice", role: "alert" }, said) : null,
    actions.length ? h("div", { class: "tutorial-actions" }, actions) : null);
  const focusedHere = document.activeElement && document.activeElement.closest && document.activeElement.closest("#tutorial");
  const focusedId = focusedHere ? document.activeElement.id : null;
  area.querySelector("#tutorial")?.remove();
  // in the page's flow right above the board (the game's drawing), covering nothing
  const board = [...area.children].find((node) => node.tagName === "SECTION" && node !== panel);
  const head = area.querySelector(".table-head");
  if (board) board.before(panel); else if (head) head.after(panel); else area.prepend(panel);
  reminder(panel, count, words);
  pointing = target ? { area, step, number: progress.step, tableId: table.id, panel, current: target } : null;
  if (target && !observed.has(area)) {
    new MutationObserver(repoint).observe(area, { childList: true, subtree: true });
    observed.add(area);
  }
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

// While the panel is scrolled out of the window (a phone, the step's element far below it), a slim bar at the
// window's bottom repeats the step's words, folded to two lines (a tap unfolds them), with a button back to
// the panel: the words stay in sight without covering the page's top and its headings. Only then: while a
// line of the panel's words shows, the bar would say them twice.
let watcher = null;  // the IntersectionObserver of the panel now shown
// (fine steps: an observer answers only when a threshold is crossed, and with a few coarse ones the bar
// stayed up while half the panel had come back into the window)
const SIGHT_STEPS = Array.from({ length: 51 }, (_, i) => i / 50);
function reminder(panel, count, words) {
  let bar = document.querySelector("#tutorial-bar");
  if (!bar) {
    bar = h("aside", { id: "tutorial-bar", class: "tutorial-bar", hidden: true, "aria-label": t("tutorialTitle") });
    document.body.append(bar);
  }
  const folded = !bar.classList.contains("open");
  bar.replaceChildren(
    h("button", { class: "tutorial-bar-words", "aria-expanded": folded ? "false" : "true",
      onclick: () => { bar.classList.toggle("open"); bar.firstChild.setAttribute("aria-expanded", String(bar.classList.contains("open"))); roomForTheBar(bar); } },
      h("span", { class: "muted" }, `${count} · `), words),
    h("button", { class: "tutorial-bar-up", title: t("tutorialTitle"), "aria-label": t("tutorialTitle"),
      onclick: () => panel.scrollIntoView({ block: "start", behavior: "smooth" }) }, "↑"));
  if (watcher) watcher.disconnect();
  // the panel is in sight while a whole line of its words shows (a sliver of its border is not)
  const said = panel.querySelector("#tutorial-text");
  const line = parseFloat(getComputedStyle(said).lineHeight) || 1.2 * parseFloat(getComputedStyle(said).fontSize);
  // (measured when the observer answers: the entries it hands over may be several, the oldest first)
  watcher = new IntersectionObserver(() => {
    const box = said.getBoundingClientRect();
    const shown = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
    bar.hidden = shown >= Math.min(line, box.height) - 1 || !panel.isConnected;
    roomForTheBar(bar);
  }, { threshold: SIGHT_STEPS });
  watcher.observe(said);
}

// The bar lies over the window's foot: while it shows, the page gets as much room below its end as the bar
// is tall (the board's last rows scroll up above it, never stay under it), and the step's element is
// brought into view above it (it covered the board, on a phone and on a desktop alike)
function barHeight() {
  const bar = document.querySelector("#tutorial-bar");
  return bar && !bar.hidden ? bar.getBoundingClientRect().height : 0;
}
function roomForTheBar(bar) {
  const height = bar.hidden ? 0 : bar.getBoundingClientRect().height;
  document.body.style.paddingBottom = height ? `${Math.ceil(height) + 8}px` : "";
}
new ResizeObserver(() => { const bar = document.querySelector("#tutorial-bar"); if (bar) roomForTheBar(bar); })
  .observe(document.documentElement);

// A drawing that redraws itself (a card staged onto a bid) replaces the ringed element: the step's element
// is found and ringed again (the Bid button once a card is staged), without waiting for the server
let pointing = null;  // { area, step, number, tableId, panel, current }: what the shown step rings
const observed = new WeakSet();  // the areas watched for such redraws
function repoint() {
  if (!pointing || !pointing.area.isConnected) return;
  const target = pointedBy(pointing.area, pointing.step);
  if (!target || (target === pointing.current && target.classList.contains("tutorial-target"))) return;
  pointing.current = target;
  point(pointing.tableId, pointing.number, target, pointing.panel);
  // the keyboard follows the lesson: a card staged with Enter, the focus goes on to Bid
  const focus = document.activeElement;
  const onTheBoard = focus && focus !== document.body && pointing.area.contains(focus) && !focus.closest("#tutorial");
  if (onTheBoard && target.matches("button, a[href], input, select, [tabindex]")) target.focus({ preventScroll: true });
}

// The highlight: one element at a time, brought into view when the window does not show it (out of view,
// or scrolled away inside its box): when its step begins, and again after an update moved it away, unless
// the person has scrolled by hand since (never fighting them).
function point(tableId, step, target, panel) {
  for (const node of document.querySelectorAll(".tutorial-target")) node.classList.remove("tutorial-target");
  if (!target) return;
  target.classList.add("tutorial-target");
  // a shape of a drawing is painted over by the later ones: the ringed one goes last, so its ring shows whole
  if (target instanceof SVGElement && target.parentNode && target.parentNode.lastChild !== target) target.parentNode.append(target);
  // looked at once the drawing has settled: a drawing may restore its own boxes' scroll in a timeout
  setTimeout(() => { if (target.isConnected) bringIntoView(`${tableId}:${step}`, target, panel); }, 0);
}

// The panel lies in the page's flow above the board (pinned over the page it covered the board's and the
// log's headings): the window shows the step's words and its element together where both fit, else the
// element, the words a short scroll above it.
function bringIntoView(key, target, panel) {
  if (!pointedAt || pointedAt.key !== key) pointedAt = { key, scrolled: false };
  else if (pointedAt.scrolled) return;  // the person scrolled during this step: the page follows them
  if (shows(target) && shows(panel)) return;
  const foot = Math.max(barHeight(), 64);  // the reminder bar at the window's bottom (or the room it takes)
  target.style.scrollMarginBottom = `${foot + 16}px`;  // above it
  const box = target.getBoundingClientRect(), words = panel.getBoundingClientRect();
  const top = Math.min(box.top, words.top), bottom = Math.max(box.bottom, words.bottom);
  if (bottom - top <= window.innerHeight - 16) {  // both fit: the least scroll that shows them
    window.scrollBy({ top: top < 8 ? top - 8 : Math.max(0, bottom - window.innerHeight + 8) });
  } else if (!shows(target)) target.scrollIntoView({ block: box.height > window.innerHeight ? "start" : "center", inline: "nearest" });
  if (!shows(target)) target.scrollIntoView({ block: "nearest", inline: "nearest" });  // inside its own scrolled box
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

// asked first: the button sits where a step's "Next" sat, and one click gave the game away (a newcomer's pass)
async function finishWithBot(table, seat, host, script) {
  if (window.confirm && !window.confirm(t("tutorialBotFinishConfirm"))) return;
  keep(table.id, { ...progressOf(table.id), free: true, bot: true });
  const response = await fetch(`/api/tables/${table.id}/seats/${seat}/bot`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ host_token: host, bot: script.bots[0] }),
  });
  if (!response.ok) explain(table.id, progressOf(table.id).step, (await response.json().catch(() => ({}))).error || response.statusText);
}

// Merchantry in the browser: the lobby, a table (live over a websocket) and replays.
import { h, seatHolderNoted, seatLabel, seatName } from "./dom.js";
import { LANGUAGES, addressLanguage, decimal, gameTitle, gameTranslator, knowTitles, language, listOf, loadLanguage, moveInWords, playsBySeat, setLanguage, t, withoutClauses } from "./i18n.js";
import * as generic from "./generic.js";
import * as tutorial from "./tutorial.js";
import { accountBar, accountPage, csrfHeader } from "./account.js";
import { openSeatsSection } from "./lobby.js";
import { chatPanel } from "./chat.js";
import { leaderboardPage, profilePage, tableRatings } from "./ratings.js";
import { banksLine, duration } from "./clock.js";

const main = document.getElementById("main");

// --- games: each game's drawing and catalogue come from its own package, found through /api/games ---
let gamesList = null;
async function gameInfo(name) {
  gamesList = gamesList || await api("/api/games");
  return gamesList.find((g) => g.name === name);
}

const drawings = new Map();
async function drawingFor(name) {
  if (!drawings.has(name)) {
    const info = await gameInfo(name);
    if (info && info.style && !document.querySelector(`link[data-game="${name}"]`)) {
      document.head.append(h("link", { rel: "stylesheet", href: info.style, "data-game": name }));
    }
    drawings.set(name, info && info.drawing ? await import(info.drawing) : generic);
  }
  return drawings.get(name);
}

const translators = new Map();  // "game:lang" -> translator
async function translatorFor(name) {
  const key = `${name}:${language()}`;
  if (!translators.has(key)) translators.set(key, await gameTranslator(name));
  return translators.get(key);
}

// A log entry as text in the reader's language (an event) or as it came (older text lines).
function logText(entry, tr, table) {
  return typeof entry === "string" ? entry : tr.event(entry, (s) => (table ? seatName(table, s) : seatLabel(s)));
}

// --- seats held by this browser: localStorage keeps the secret token, so a reload resumes the seat ---
function saved(tableId) {
  return JSON.parse(localStorage.getItem(`merchantry:table:${tableId}`) || "{}");
}
function save(tableId, data) {
  localStorage.setItem(`merchantry:table:${tableId}`, JSON.stringify({ ...saved(tableId), ...data }));
}

async function api(path, options = {}) {
  const response = await fetch(path, {
    ...options,
    headers: { "Content-Type": "application/json", ...csrfHeader(), ...(options.headers || {}) },
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const reason = body.error || (Array.isArray(body.detail) ? body.detail.map((d) => d.msg).join("; ") : body.detail);
    // the status and the server's `why` go with it: a page can say a refusal in its reader's language
    throw Object.assign(new Error(reason || response.statusText), { status: response.status, why: body.why });
  }
  return body;
}

// Messages stack in one list at the foot of the screen, newest last, each readable: the same text again only
// restarts its timer, and at most three show at once
const TOASTS_SHOWN = 3;
// `untilOver`: a notice about the game in play (a bot takes the seat over), gone once the game is over: its
// end table comes up at once, and a toast at the foot of the screen covered it
function toast(text, kind = "error", { untilOver = false } = {}) {
  let list = document.getElementById("toasts");
  if (!list) {
    list = h("div", { id: "toasts", "aria-live": "assertive" });
    document.body.append(list);
  }
  const same = [...list.children].find((node) => node.textContent === text);
  if (same) same.remove();
  const node = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status", "data-until-over": untilOver ? "" : null }, text);
  list.append(node);
  while (list.children.length > TOASTS_SHOWN) list.firstElementChild.remove();
  keepClearOfTheControl(list);
  setTimeout(() => node.remove(), 5000);
}

// The messages sit at the foot of the window unless they would cover the control the person just used (or
// its form): on a phone a refused move's message hid the Send button it was typed beside. They then go to
// the top of the window, as far from that control as the window allows
function keepClearOfTheControl(list) {
  list.classList.remove("at-top");
  const used = document.activeElement;
  if (!used || used === document.body || list.contains(used)) return;
  const control = (used.closest("form") || used).getBoundingClientRect();
  const shown = list.getBoundingClientRect();
  const covers = shown.top < control.bottom && control.top < shown.bottom && shown.left < control.right && control.left < shown.right;
  if (covers) list.classList.add("at-top");
}

// The reader's choice from the menu, kept for the next pages; an address that names a language is made to
// name this one (else it would win over the choice just made)
function choose(lang) {
  setLanguage(lang);
  if (addressLanguage() && addressLanguage() !== lang) {
    const address = new URL(location.href);
    address.searchParams.set("lang", lang);
    history.replaceState(history.state, "", address);
  }
}

function header() {
  const select = h("select", { id: "lang", "aria-label": "Language", onchange: (e) => { choose(e.target.value); route(); } },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === language() }, name)));
  const bar = document.getElementById("bar");
  const account = h("span", { id: "account" });
  bar.replaceChildren(
    h("a", { href: "/", class: "brand" }, "Merchantry"),
    h("a", { href: "/" }, t("lobby")),
    h("span", { class: "spacer" }),
    account,
    select,
  );
  accountBar(account, route);
}

// --- lobby -------------------------------------------------------------------------------------------
async function lobby() {
  const games = await api("/api/games");
  const tables = await api("/api/tables");
  // "/?game=<name>&level=easy": the table a guided first game's last step leads to, chosen in advance
  const asked = new URLSearchParams(location.search);
  const askedGame = games.some((g) => g.name === asked.get("game")) ? asked.get("game") : games[0].name;
  const gameSelect = h("select", { id: "game", name: "game" }, games.map((g) => h("option", { value: g.name, selected: g.name === askedGame }, gameTitle(g.name, g.title))));
  const withRules = games.filter((g) => g.rules);
  const rulesLinks = withRules.length ? h("p", { class: "rules-links" }, `${t("rules")}${t("colon")}`,
    withRules.flatMap((g, i) => [i ? " · " : "", h("a", { href: `${g.rules}?lang=${language()}`, target: "_blank" }, gameTitle(g.name, g.title))])) : null;
  const playersInput = h("input", { id: "players", type: "number", min: 2, max: 7, value: 4 });
  const seatsBox = h("div", { id: "seats", class: "seat-choices" });
  const clockInput = h("input", { id: "turn-seconds", type: "number", min: 0, max: 3600, value: 0 });
  const clockUnit = h("select", { id: "turn-unit", "aria-label": t("clockUnit") },
    [["1", t("unit_seconds")], ["3600", t("unit_hours")], ["86400", t("unit_days")]].map(([value, label]) => h("option", { value }, label)));
  const totalInput = h("input", { id: "total-time", type: "number", min: 0, value: 0 });
  const totalUnit = h("select", { id: "total-unit", "aria-label": t("totalUnit") },
    [["60", t("unit_minutes")], ["3600", t("unit_hours")], ["86400", t("unit_days")]].map(([value, label]) => h("option", { value }, label)));
  const ratedInput = h("input", { id: "rated", type: "checkbox" });
  const otherBots = h("details", { id: "other-bots", class: "other-bots" }, h("summary", {}, t("otherBots")),
    h("p", { class: "muted" }, t("otherBotsHelp")));
  const levelsHelp = h("ul", { id: "levels-help", class: "levels-help" });
  const optionsBox = h("fieldset", { id: "options", class: "options" });
  const nameInput = h("input", { id: "name", maxlength: 40, value: localStorage.getItem("merchantry:name") || "", placeholder: t("yourName"), required: true });

  function drawSeats() {
    const game = games.find((g) => g.name === gameSelect.value);
    playersInput.min = game.min_players;
    playersInput.max = game.max_players;
    const n = Math.max(game.min_players, Math.min(game.max_players, Number(playersInput.value) || game.min_players));
    playersInput.value = n;
    const levels = LEVELS.filter((b) => game.bots.includes(b));
    const others = game.bots.filter((b) => !LEVELS.includes(b));
    const people = [["human", t("human")], ["open", t("openSeat")], ...levels.map((b) => [`bot:${b}`, botLabel(b)])];
    const scripted = otherBots.open ? others.map((b) => [`bot:${b}`, botLabel(b)]) : [];
    const kinds = [...people, ...scripted];
    const previous = [...seatsBox.querySelectorAll("select")].map((sel) => sel.value);  // keep earlier choices
    const level = LEVELS.includes(asked.get("level")) ? asked.get("level") : "medium";
    const defaultBot = `bot:${game.bots.includes(level) ? level : game.bots[0]}`;
    const choice = (s) => {
      const kept = previous[s];
      if (kept && kinds.some(([value]) => value === kept)) return kept;
      return s === 0 ? "human" : defaultBot;
    };
    // the host's own seat (P1, a person) is "You", not a person to invite
    const options = (list, seat) => list.map(([value, label]) => h("option", { value, selected: value === choice(seat) },
      value === "human" && seat === 0 ? t("seatYou") : label));
    seatsBox.replaceChildren(...Array.from({ length: n }, (_, seat) => h("label", {}, `${t("seat")} ${seatLabel(seat)} `,
      h("select", { "data-seat": seat, "aria-label": `${t("seat")} ${seatLabel(seat)}` }, options(people, seat),
        scripted.length ? h("optgroup", { label: t("otherBots") }, options(scripted, seat)) : null))));
    otherBots.hidden = !others.length;
    levelsHelp.replaceChildren(...levels.map((b) => h("li", {}, h("strong", {}, `${botLabel(b)}${t("colon")}`), t(`levelHelp_${b}`),
      game.levels && game.levels[b] ? h("span", { class: "muted" }, ` ${t("levelMeasured", percentages(game.levels[b]))}`) : null)));
  }
  async function drawOptions() {
    const game = games.find((g) => g.name === gameSelect.value);
    const tr = await translatorFor(game.name);
    if (game.name !== gameSelect.value) return;  // another game was chosen meanwhile
    const fields = Object.entries(game.options || {}).map(([name, o]) => optionField(name, o, tr));
    optionsBox.hidden = !fields.length;
    optionsBox.replaceChildren(h("legend", {}, t("optionsLegend")), ...fields);
  }
  otherBots.addEventListener("toggle", drawSeats);
  gameSelect.addEventListener("change", drawOptions);
  gameSelect.addEventListener("change", drawSeats);
  playersInput.addEventListener("change", drawSeats);
  drawSeats();
  drawOptions();

  async function create(event) {
    event.preventDefault();
    const seats = [...seatsBox.querySelectorAll("select")].map((sel) => sel.value === "human" || sel.value === "open" ? { kind: "human", open: sel.value === "open" } : { kind: "bot", bot: sel.value.slice(4) });
    const name = nameInput.value.trim() || t("defaultName");
    localStorage.setItem("merchantry:name", name);
    try {
      const created = await api("/api/tables", { method: "POST", body: JSON.stringify({ game: gameSelect.value, players: seats.length, seats, name, options: chosenOptions(optionsBox), turn_seconds: Math.round((Number(clockInput.value) || 0) * Number(clockUnit.value)), total_seconds: Math.round((Number(totalInput.value) || 0) * Number(totalUnit.value)), rated: ratedInput.checked }) });
      save(created.id, { seat: created.seat, token: created.token, host: created.host_token, invites: created.invites });
      history.pushState({}, "", `/table/${created.id}`);
      route();
    } catch (error) { toast(error.message); }
  }

  const who = (table, s) => seatHolderNoted(table.seats[s]);
  // a seat this browser holds (its token): the person plays on there, not watches; a guided first game is
  // listed to its person alone (left unfinished, it would sit as "playing" in everybody's lobby for good)
  const seated = (table) => Boolean(saved(table.id).token);
  const going = (table) => table.status === "waiting" || table.status === "playing";
  const listed = tables.filter((table) => !table.tutorial || seated(table));
  const rows = listed.map((table) => h("tr", {},
    h("td", {}, gameTitle(table.game, table.title), table.tutorial ? h("small", { class: "muted" }, ` · ${t("tutorialTitle")}`) : null),
    h("td", {}, listOf(table.seats.map((s) => who(table, s.seat)))),
    h("td", {}, age(table.created_at)),
    h("td", {}, t(`status_${table.status}`)),
    // the winner by seat too: "P3 · medium (bot)" tells which of three medium bots
    h("td", {}, table.result ? listOf(table.result.winners.map((w) => `${seatLabel(w)} · ${who(table, w)} (${table.result.scores[w]})`)) : ""),
    h("td", { class: "links" }, h("a", { href: `/table/${table.id}` }, going(table) ? (seated(table) ? t("resume") : t("watch")) : t("open")),
      table.status === "finished" ? [" · ", h("a", { href: `/replay/${table.id}` }, t("replay"))] : []),
  ));
  main.replaceChildren(
    learnLinks(games),
    h("h1", {}, t("newTable")),
    // two columns side by side on a wide screen (who plays; then how: options, clocks, name), one below the
    // other on a phone: a narrow form left half the desktop's lobby empty
    h("form", { id: "create", class: "card-panel", onsubmit: create },
      h("div", { class: "create-part create-who" },
        h("label", {}, `${t("game")} `, gameSelect),
        h("label", {}, `${t("players")} `, playersInput),
        seatsBox,
        levelsHelp,
        otherBots),
      h("div", { class: "create-part create-how" },
        optionsBox,
        // a clock's number and its unit stay on one line (the unit menu had wrapped onto a line of its own)
        h("label", {}, `${t("turnClock")} `, h("span", { class: "with-unit" }, clockInput, ` ${t("clockUnit")} `, clockUnit)),
        h("label", {}, `${t("totalClock")} `, h("span", { class: "with-unit" }, totalInput, " ", totalUnit)),
        h("label", {}, ratedInput, ` ${t("ratedTable")}`),
        h("label", {}, `${t("yourName")} `, nameInput),
        h("button", { type: "submit", class: "primary" }, t("create")))),
    rulesLinks,
    openSeatsSection(games, { api, toast, save, open: (path) => { history.pushState({}, "", path); route(); } }),
    h("h2", {}, t("tables")),
    h("div", { class: "table-scroll" }, stackable(h("table", { class: "tables" },  // a phone stacks each row
      h("thead", {}, h("tr", {}, [t("game"), t("players"), t("started"), t("status"), t("winner"), ""].map((c) => h("th", {}, c)))),
      h("tbody", {}, rows.length ? rows : h("tr", { class: "empty" }, h("td", { colspan: 6 }, t("noTables"))))))),
  );
}

const LEVELS = ["easy", "medium", "hard"];  // the bots for people; any other bot is for testing strategies

// a measured win rate and its 95% interval, in whole percent
function percentages(level) {
  const pct = (x) => Math.round(x * 100);
  return { rate: pct(level.win_rate), low: pct(level.low), high: pct(level.high), games: level.games };
}

// one of a game's declared options in the create form: its name in words, the rulebook's value beside it;
// a whole number within its bounds (the server refuses anything else with a clear message)
function optionField(name, option, tr) {
  const number = typeof option.default === "number";
  const input = h("input", { "data-option": name, type: number ? "number" : "text", value: option.default, maxlength: number ? null : 64,
    min: option.low ?? null, max: option.high ?? null, step: number ? 1 : null, title: option.allowed || option.help, "aria-label": tr.option(name) });
  const bounds = option.low !== null && option.low !== undefined ? t("optionBounds", { low: option.low, high: option.high }) : "";
  const words = tr.option(name);
  return h("label", { class: "option" }, `${words.charAt(0).toUpperCase()}${words.slice(1)} `, input,
    h("small", { class: "muted" }, ` ${t("optionDefault", { value: standardValue(name, option.default, tr) })}${bounds ? ` · ${bounds}` : ""}`));
}

// an option's standard value in words: the game's own where it gives them, else the value ("none" for empty)
function standardValue(name, value, tr) {
  return (tr.optionDefault && tr.optionDefault(name)) ?? (value === "" ? t("optionEmpty") : value);
}

// the options changed from their defaults (the rest are the game's own): as numbers where they are numbers
function chosenOptions(box) {
  const chosen = {};
  for (const input of box.querySelectorAll("[data-option]")) {
    if (input.value === input.defaultValue) continue;
    chosen[input.dataset.option] = input.type === "number" && /^-?\d+$/.test(input.value.trim()) ? Number(input.value) : input.value.trim();
  }
  return chosen;
}

// the options a table is played with that differ from the game's defaults, in words: "Variants: hand limit 5 (rulebook: 7)"
function optionsLine(table, tr) {
  const changed = Object.entries(table.options || {}).filter(([name, value]) => (table.defaults || {})[name] !== value);
  if (!changed.length) return null;
  return h("p", { class: "table-options", id: "table-options" }, h("strong", {}, `${t("variantsLine")} `),
    changed.flatMap(([name, value], i) => [i ? t("listSeparator") : "", h("span", { "data-option": name },
      `${tr.option(name)}${t("colon")}${value === "" ? t("optionEmpty") : value}`,
      name in (table.defaults || {}) ? h("small", { class: "muted" }, ` (${t("optionDefault", { value: standardValue(name, table.defaults[name], tr) })})`) : null)]));
}

// A table whose rows stack on a phone, each cell under its column's name (style.css, table.stacked): six
// columns do not fit 390 px, and a table scrolled sideways hides its last columns without a sign
function stackable(table) {
  const names = [...table.querySelectorAll("thead th")].map((th) => th.textContent);
  for (const row of table.querySelectorAll("tbody tr")) {
    [...row.children].forEach((cell, i) => { if (names[i] && cell.colSpan === 1) cell.dataset.label = names[i]; });
  }
  table.classList.add("stacked");
  return table;
}

// "Learn to play": each game's guided first game (a fixed deal against bots, taught step by step)
function learnLinks(games) {
  const taught = games.filter((g) => g.tutorial);
  return taught.length ? h("section", { class: "learn-links", id: "learn" }, h("h2", {}, t("newHere")),
    h("p", {}, t("newHereHelp")),
    h("p", { class: "learn-buttons" }, taught.map((g) => h("a", { href: `/learn/${g.name}`, id: `learn-${g.name}`, class: "button primary" }, gameTitle(g.name, g.title))))) : null;
}

async function learn(game) {
  main.replaceChildren(h("p", {}, t("tutorialStarting")));
  try {
    // a learner with no name of their own is named as a learner, not as a host (a lesson has no guests: nc17)
    await tutorial.start(game, localStorage.getItem("merchantry:name") || t("learnerName"), (created) => {
      save(created.id, { seat: created.seat, token: created.token, host: created.host_token, invites: created.invites });
      history.replaceState({}, "", `/table/${created.id}`);
    });
    route();
  } catch (error) { toast(error.message); }
}

// a bot's name in a seat menu: the levels in words, any other bot (a game's own policy bots) by its name
// "P1 Ann (Simple bot from move 15)": a seat with who played it, where a bot finished a person's game
function noted(table, seat) {
  return `${seatLabel(seat)} ${seatHolderNoted(table.seats[seat])}`;
}

function botLabel(b) {
  return t(`bot_${b}`) === `bot_${b}` ? t("bot_other", { name: b }) : t(`bot_${b}`);
}

// "5 min ago", "3 h ago", "2 d ago", in the reader's language
function age(iso) {
  if (!iso) return "";
  const minutes = Math.max(0, Math.round((Date.now() - Date.parse(iso.endsWith("Z") || iso.includes("+") ? iso : `${iso}Z`)) / 60000));
  const format = new Intl.RelativeTimeFormat(language(), { numeric: "auto" });
  if (minutes < 60) return format.format(-minutes, "minute");
  if (minutes < 60 * 48) return format.format(-Math.round(minutes / 60), "hour");
  return format.format(-Math.round(minutes / 1440), "day");
}

// --- a table -----------------------------------------------------------------------------------------
let socket = null;
let chatBox = null;  // the table's chat beside it (chat.js)

async function tablePage(tableId) {
  const params = new URLSearchParams(location.search);
  const mine = saved(tableId);
  if (!mine.token && params.get("invite")) {
    await joinForm(tableId, Number(params.get("seat")), params.get("invite"));
    return;
  }
  const area = h("div", { id: "table" });
  chatBox = chatPanel();
  main.replaceChildren(area, tableRatings(api, tableId), chatBox.node);
  connect(tableId, mine.token, area);
}

async function joinForm(tableId, seat, invite) {
  const name = h("input", { id: "join-name", maxlength: 40, required: true, value: localStorage.getItem("merchantry:name") || "", placeholder: t("yourName") });
  async function join(event) {
    event.preventDefault();
    try {
      localStorage.setItem("merchantry:name", name.value.trim());
      const joined = await api(`/api/tables/${tableId}/join`, { method: "POST", body: JSON.stringify({ seat, invite, name: name.value.trim() }) });
      save(tableId, { seat: joined.seat, token: joined.token });
      history.replaceState({}, "", `/table/${tableId}`);
      route();
    } catch (error) { toast(error.message); }
  }
  main.replaceChildren(h("form", { id: "join", class: "card-panel", onsubmit: join },
    h("h1", {}, t("joinAs", { seat: seatLabel(seat) })),
    h("label", {}, `${t("yourName")} `, name),
    h("button", { type: "submit", class: "primary" }, t("join"))));
}

// Reconnects after a dropped connection wait longer each time (1 s, 2 s, 4 s ... 30 s) and stop for good
// when the server refuses the table itself (4404: no such table; 4400: a malformed request; 4500: a table it
// cannot show, a server error)
let reconnects = 0;

function connect(tableId, token, area) {
  if (socket) socket.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // the seat token travels as a subprotocol, never in the address (addresses end up in logs)
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}`, token ? ["merchantry", `token.${token}`] : ["merchantry"]);
  const mySocket = socket;
  mySocket.onopen = () => { reconnects = 0; };
  // a hint still being worked out, or shown, is for a decision this move makes: forgotten (hintFor). But a
  // step of the hinted move keeps its rest on screen, and asks the server again for the new position: its
  // answer is the same move's rest (FollowedHints), not a new search that may change its mind half-way
  const send = (action) => {
    const following = lastHint !== null && lastHint.plan.length > 1 && lastHint.plan[0] === action;
    hintAsked = null;
    if (following) {
      lastHint = { ...lastHint, best: lastHint.plan[1], plan: lastHint.plan.slice(1), position: `${tableId}:` };
      hintWanted = tableId;
    } else {
      hintWanted = null;
      lastHint = null;
    }
    mySocket.send(JSON.stringify({ type: "act", action }));
  };
  let drawn = Promise.resolve();
  let logSoFar = [];  // the log this connection was sent: each update brings only its new entries
  // a refused move's reason in the reader's language (the game's catalogue, as the table last drawn names
  // its seats); the server's English sentence until a table is drawn or for a reason the catalogue lacks
  let said = null;
  const refusal = (message) => (said ? said.tr.reason(message.why, message.reason, (s) => seatName(said.table, s)) : withoutClauses(message.reason, message.why));
  mySocket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      chatBox?.connected(mySocket, message.seat);
      if ((message.log_from || 0) > logSoFar.length) { mySocket.close(); return; }  // a gap: start afresh
      if (message.log_from !== undefined) {
        logSoFar = logSoFar.slice(0, message.log_from).concat(message.view.log || []);
        message.view.log = logSoFar;
      }
      // a game's drawing and catalogue load once; each message waits for the one before it
      drawn = drawn
        .then(() => Promise.all([drawingFor(message.table.game), translatorFor(message.table.game), tutorial.load(message.table)]))
        .then((loaded) => pressOver().then(() => loaded))
        .then(([renderer, tr]) => { said = { tr, table: message.table }; return drawTable(tableId, message, send, area, renderer, tr); })
        .catch((error) => toast(error.message));
    }
    else if (message.type === "chat" || message.type === "mute") chatBox?.receive(message);
    else if (message.type === "refused") { typedSteps = []; toast(`${t("refused")}${t("colon")}${refusal(message)}`); }
    else if (message.type === "revoked") {
      // the server checked the database: the seat is no longer held by this token (given to a bot, or
      // not a token of this table): forget it and watch instead. A person who let a bot finish their own
      // game (a guided first game) chose it: told calmly, in their language
      if (message.to_bot && message.tutorial) {
        if (overShown !== tableId) toast(t("botFinishesYours"), "info", { untilOver: true });
      }
      else toast(message.reason);
      save(tableId, { seat: null, token: null });
      token = null;
    }
    // any other refusal (the database away, too many connections) is for now: the token is kept and the
    // page comes back with it after a pause
    else if (message.type === "error") toast(`${t("refused")}${t("colon")}${message.reason}`);
  };
  mySocket.onclose = (event) => {
    if (socket !== mySocket || location.pathname !== `/table/${tableId}`) return;
    if (event.code === 4404 || event.code === 4400 || event.code === 4500) { toast(event.reason || t("refused")); return; }
    const wait = Math.min(30000, 1000 * 2 ** reconnects++) * (0.75 + Math.random() / 2);  // spread a storm out
    setTimeout(() => connect(tableId, token, area), wait);
  };
}

let overShown = null;  // the table whose end the page shows (a notice about play to come is then moot)

// An update is drawn once a press under way in the table is over. The table is drawn anew at every update,
// and one drawn between a press and its release replaced the control pressed, so no click came and nothing
// happened (a newcomer pressed Hint while bots sealed their bids: no hint, no "Thinking", 1 press in 8; a
// card pressed in a sealed bid could be lost alike). The drawing waits for the release's click (the task after
// it); a press held longer than PRESS_HOLD_MS holds nothing up.
const PRESS_HOLD_MS = 2000;
let press = null;  // { over: a promise kept at the release, end: keeps it } while a pointer is down in the table
function pressOver() {
  return press ? press.over : Promise.resolve();
}
document.addEventListener("pointerdown", (event) => {
  if (!event.target.closest || !event.target.closest("#table")) return;
  let keep;
  const over = new Promise((resolve) => { keep = resolve; });
  const end = () => { clearTimeout(timer); if (press && press.over === over) press = null; keep(); };
  const timer = setTimeout(end, PRESS_HOLD_MS);
  press = { over, end };
}, true);
for (const type of ["pointerup", "pointercancel"]) {
  document.addEventListener(type, () => { const held = press; if (held) setTimeout(held.end, 0); }, true);
}

function drawTable(tableId, payload, send, area, renderer, tr) {
  // a guided first game explains a move it does not ask for (and draws the table again when it refused a
  // decision the page had staged, so that the staged cards are back in the hand)
  const unguarded = send;
  send = tutorial.guard(payload, send, () => drawTable(tableId, payload, unguarded, area, renderer, tr));
  const { table, seat, view, legal } = payload;
  if (table.status === "finished") {
    overShown = tableId;
    document.querySelectorAll("#toasts [data-until-over]").forEach((node) => node.remove());
  }
  const rulesUrl = (gamesList || []).find((g) => g.name === table.game)?.rules;
  const mine = saved(tableId);
  const lastLog = area.querySelector(".log ol");
  const seen = lastLog ? lastLog.children.length : (view.log || []).length;
  let banner;
  if (table.status === "finished") banner = `${t("winner", { count: table.result.winners.length })}${t("colon")}${listOf(table.result.winners.map((w) => noted(table, w)))}`;
  else if (table.status === "closed") banner = t("closedBanner");
  // a browser with no seat is told so, and how to get one (a newcomer who opened the table's address in
  // another browser took it for their seat: issue 32, fourteenth pass); not "send each friend their link"
  else if (seat === null) banner = t("spectator");
  else if (table.status === "waiting") banner = t("waitingToJoin", { who: listOf(table.waiting_for.map(seatLabel)) });
  // a seat the server answers for (a sale offer for a card it does not hold) waits like everyone else
  else if ((view.to_act || []).includes(seat) && !payload.answered_for_you) banner = yourTurnBanner(table, tr);
  else banner = waitingBanner(table, (view.to_act || []).filter((s) => s !== seat));

  // a move of the moves panel, clicked or typed, goes through the drawing first (`typed`): a page that holds
  // a move in the making (a bid built by clicks) plays it as its own controls do, one state for both
  // (`typed` answers "held" for a move it only holds on the page, a card put into a bid in the making: nothing
  // is sent, so a typed sequence goes on to its next step at once, with no new position to wait for)
  const ownMove = (move) => (renderer.typed ? renderer.typed(move, send) || false : false);
  const sendMove = (move) => { if (!ownMove(move)) send(move); };
  sendMove.own = ownMove;
  sendMove.raw = send;
  heldOnPage = renderer.held || (() => []);
  shownTr = tr;
  // a guided first game takes a whole typed decision at once (tutorial.js, guard's `whole`): kept on the
  // sender the moves panel uses, or "add X · bid" sent its first card alone and the lesson waited for the rest
  sendMove.whole = send.whole;
  const moveInput = h("input", { id: "move", placeholder: t("typeMove"), maxlength: 200, "aria-label": t("typeMove"),
    oninput: () => { moveDraft = { table: tableId, text: moveInput.value }; } });
  moveInput.value = moveDraft.table === tableId ? moveDraft.text : "";
  const moveForm = h("form", { class: "move-form", onsubmit: (e) => {
    e.preventDefault(); typingAt = tableId; moveDraft = { table: tableId, text: "" };
    // a move the page only holds draws no table anew: the box is emptied here (Enter again held nothing more)
    if (sendTyped(moveInput.value, sendMove)) moveInput.value = "";
  } },
    moveInput, h("button", { type: "submit" }, t("send")));
  // each as it is typed; a drawing may add what it names (`label`: "discard 10 (cinnamon)"); on a page in
  // another language than the notation's English, the move in words beside it ("buy ruby · einen Rubin kaufen")
  const inWords = (move) => {
    const said = tr.move(move);
    return language() !== "en" && said !== move ? h("small", { class: "move-words" }, ` · ${said}`) : null;
  };
  const buttons = h("div", { class: "legal" }, legal.map((move, i) => h("button", { "data-move": move, onclick: () => sendMove(move), title: `${i + 1}` },
    renderer.label ? renderer.label(move, tr) : move, inWords(move))));

  // turns the clock took away are said in the log too (a bot played them)
  const timeouts = (table.timeouts || []).map((out) => h("li", { class: "notice" }, t("timedOut", { seat: seatName(table, out.seat) })));
  // and a person's seat a bot finished, from which move (the log's lines name the person throughout)
  const finished = table.seats.filter((s) => s.kind === "bot" && s.name && s.bot_from !== null && s.bot_from !== undefined)
    .map((s) => h("li", { class: "notice bot-finished muted" }, noted(table, s.seat)));
  timeouts.push(...finished);
  timeouts.push(...(table.out_of_time || []).map((s) => h("li", { class: "notice" }, t("outOfTime", { seat: seatName(table, s) }))));
  const log = h("div", { class: "log" }, h("h3", {}, t("log")),
    numberedLog(view.log || [], payload.log_moves || [], seen, tr, table),
    timeouts.length ? h("ul", { class: "notices" }, timeouts) : null);

  // keyboard focus stays where it was: the same control (by its move, id or label) is focused again after the redraw
  const focused = document.activeElement && area.contains(document.activeElement) ? focusMemory(document.activeElement) : null;
  const myTurn = seat !== null && table.status === "playing" && (view.to_act || []).includes(seat) && !payload.answered_for_you;
  const board = renderer.render(payload, send, tr.ui, tr);
  // before every seat is taken nobody can act: the game's own prompt ("add cards... then Bid") would mislead;
  // nor at a table the host closed (its last prompt, "Your exchange: take a market group...", stayed)
  if (table.status === "waiting" || table.status === "closed") board.querySelectorAll("[role=status]").forEach((node) => node.remove());
  // invite links and seat changes belong to a game still to be played with others: not a guided first game's
  const host = mine.host && !table.tutorial && ["waiting", "playing"].includes(table.status) ? hostPanel(tableId, table, mine) : null;
  // a hint holds while what the seat knows is the same (a sealed bid of another seat changes it, not the log)
  const position = `${tableId}:${payload.position}`;
  shownPosition = position;
  area.replaceChildren(...[
    h("div", { class: "table-head" }, h("h1", {}, gameTitle(table.game, table.title)), h("div", { class: "banner", role: "status" }, banner),
      banksLine(table, t, Date.now()),
      rulesUrl ? h("a", { href: `${rulesUrl}?lang=${language()}`, target: "_blank" }, t("rules")) : null,
      myTurn && table.hints ? hintButton(tableId, mine.token, position, area, tr) : null,
      table.status === "finished" ? h("a", { href: `/replay/${tableId}` }, t("replay")) : null,
      // the analysis, one click from the end (a newcomer found it only behind Replay)
      table.status === "finished" ? h("a", { id: "to-analysis", href: `/replay/${tableId}#analysis` }, t("analyse")) : null,
      table.status === "finished" && mine.host ? h("button", { class: "primary", id: "rematch", onclick: () => rematch(table) }, t("rematch")) : null),
    optionsLine(table, tr),
    myTurn && hintFollowed(tableId, position) ? hintBox(lastHint, tr, lastHint.position !== position) : null,
    table.status === "waiting" ? host : null,  // the invite links come first while friends are awaited
    board,
    seat !== null && table.status === "playing" && legal.length ? h("details", { class: "moves-panel", open: movesOpen(tableId, renderer),
      ontoggle: (e) => { movesPanel = { table: tableId, open: e.target.open }; } },
      h("summary", {}, t("legalMovesHeading", { n: legal.length })), buttons, moveForm) : null,
    seat !== null && table.status === "playing" && !legal.length ? nothingToPlay(table, view, seat) : null,
    table.status === "waiting" ? null : host,
    log,
  ].filter(Boolean));
  // the newest log line shows inside the log's own box; the page itself never scrolls by itself
  const box = area.querySelector(".log");
  if (box) followTheEnd(box);
  tutorial.show(payload, area, mine.host);
  continueTyped(payload, position, myTurn, send, ownMove);
  if (!myTurn && hintWanted === tableId) hintWanted = null;  // the decision asked about is over
  else if (myTurn && table.hints) hintAgain(tableId, mine.token, position, area, tr);
  if (focused) refocus(area, focused);
  // a keyboard player who typed the last move types the next: the box has the focus again when the panel
  // comes back (it is not drawn while another seat is on turn, and the focus fell to the page with it)
  else if (typingAt === tableId && document.activeElement === document.body) area.querySelector(".moves-panel[open] #move")?.focus({ preventScroll: true });
  document.title = `${myTurn ? `● ${t("yourTurn")} — ` : ""}${gameTitle(table.game, table.title)} — Merchantry`;
  startCountdown(area, clockShown(table, view, seat, payload.answered_for_you), table);
  startDecisionCountdown(area, table);
}

// A step the server answers for whoever has not answered by a deadline (server/tables.py,
// `decision_deadline`: the same for every seat): each `.decision-countdown` a game's drawing places counts
// down to it, "for-you" (a bot answers for you in 27 s) to a seat that has a choice, else "for-table"
let decisionTimer = null;
function startDecisionCountdown(area, table) {
  clearInterval(decisionTimer);
  const spots = [...area.querySelectorAll(".decision-countdown")];
  if (table.decision_deadline === null || table.decision_deadline === undefined || !spots.length) {
    spots.forEach((spot) => { spot.hidden = true; });
    return;
  }
  const deadline = Date.now() + table.decision_deadline * 1000;
  const tick = () => {
    const seconds = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    for (const spot of spots) {
      spot.textContent = t(spot.classList.contains("for-you") ? "decisionLeftForYou" : "decisionLeftForTable", { seconds, count: seconds });
      spot.classList.toggle("hurry", seconds <= 10);
    }
    if (!seconds) clearInterval(decisionTimer);
  };
  tick();
  decisionTimer = setInterval(tick, 1000);
}

// The moves panel stays as its reader left it, open or closed, from one move to the next (it was drawn afresh
// closed after every move, and a keyboard player typing moves had to open it again each time); at first it
// is open only for a game without a drawing of its own, where it is the only way to play
let movesPanel = { table: null, open: false };
let typingAt = null;  // the table whose last move was typed in the moves panel, while nothing else took the focus
// what is typed in the moves panel's box and not yet sent: every redraw (another seat's move) draws the box
// afresh, and a move half typed, or typed but not yet sent with Enter, was lost with the old box (ci32)
let moveDraft = { table: null, text: "" };
document.addEventListener("focusin", (e) => { if (e.target.id !== "move") typingAt = null; });
function movesOpen(tableId, renderer) {
  return movesPanel.table === tableId ? movesPanel.open : renderer === generic;
}

// The live log, each line numbered by the move that wrote it, as the replay and the analysis number moves
// ("move 12" is the record's 12th move; the deal's lines, before the first move, by none). The server numbers
// only as far as this seat could count the moves itself: after a move it did not see (a card put into a
// sealed bid) the lines go unnumbered until the game ends, and a note says why
function numberedLog(entries, numbers, seen, tr, table) {
  const lines = entries.map((entry, i) => {
    const move = numbers[i];
    return h("li", { class: i >= seen ? "new" : "", value: move || null, "data-move-number": move === undefined ? null : String(move) },
      logText(entry, tr, table));
  });
  const unnumbered = entries.length > numbers.length;
  // a move that writes no line (a card put into a bid, one's own step) keeps its number: a newcomer saw the
  // numbers skip and was not told why
  const known = numbers.filter((n) => n);
  const skips = known.some((n, i) => i > 0 && n > known[i - 1] + 1);
  return [h("ol", { class: "by-move" }, lines),
    unnumbered ? h("p", { class: "muted log-numbers-note", id: "log-numbers-note" }, t("logNumbersLater")) : null,
    skips ? h("p", { class: "muted log-numbers-note log-numbers-skip" }, t("logNumbersSkip")) : null];
}

// A seat with no move now (a bot on turn, or another person) is told whose turn it is, not shown an empty
// list of legal moves ("All legal moves (0)")
function nothingToPlay(table, view, seat) {
  const others = (view.to_act || []).filter((s) => s !== seat);
  if (!others.length) return null;
  return h("p", { class: "moves-none muted", id: "moves-none" },
    t("noMovesNow", { who: listOf(others.map((s) => seatName(table, s))), count: others.length }));
}

// A move typed as the hint writes it, steps joined by " · ": its first step is sent now, each
// next one when the page shows the step before it done and this seat still on turn with that step legal;
// otherwise the rest is dropped and said so, never sent into a position it was not meant for
let typedSteps = [];
let typedAt = null;  // the position the last step was sent in: the next waits until the page has moved on
// True when every step was held on the page (nothing sent). Each step goes through the drawing once (`own`):
// "held" (on the page only) goes on to the next step at once, true (the drawing sent it) or false (sent as
// it is) waits for the table to show it
function sendTyped(text, send) {
  const steps = text.split("·").map((step) => step.trim()).filter(Boolean);
  if (!steps.length) return false;
  // a guided first game takes a whole decision at once (tutorial.js, guard)
  if (steps.length > 1 && send.whole && send.whole(steps)) { typedSteps = []; return false; }
  typedSteps = [];
  while (steps.length) {
    const step = steps.shift();
    const own = send.own ? send.own(step) : false;
    if (own === "held") continue;
    typedSteps = steps;
    typedAt = shownPosition;
    if (!own) (send.raw || send)(step);
    return false;
  }
  return true;
}

function continueTyped(payload, position, myTurn, send, ownMove) {
  if (!typedSteps.length || position === typedAt) return;
  // a sale offer the server answers for this seat (it does not hold the card) comes between two steps
  if (!myTurn && payload.answered_for_you && payload.table.status === "playing") return;
  const step = typedSteps.shift();
  const own = myTurn && ownMove(step);
  if (own === "held") { typedAt = null; continueTyped(payload, position, myTurn, send, ownMove); return; }  // on the page only
  if (own) { typedAt = position; return; }  // the drawing played it (a bid it holds)
  const same = (move) => move.toLowerCase().replace(/\s+/g, " ") === step.toLowerCase().replace(/\s+/g, " ");
  const legal = myTurn ? payload.legal.find(same) : undefined;
  if (legal === undefined) {
    typedSteps = [];
    toast(t("typedStepNotNow", { step }));
    return;
  }
  typedAt = position;
  send(legal);
}

// A log box shows its newest line whole: scrolled to its end, and kept there when its lines wrap anew after
// that (the drawing's styles arriving, a phone turned, a narrower window: the last line was cut), unless
// the reader has scrolled up to read back
function followTheEnd(box) {
  const atTheEnd = () => box.scrollHeight - box.scrollTop - box.clientHeight <= 2;
  const size = () => `${box.scrollHeight}:${box.clientHeight}`;
  box.scrollTop = box.scrollHeight;
  let following = true;
  let sized = size();
  // a scroll while the box keeps its size is the reader's; one with a new size is the browser's own
  // (its scroll anchoring, as lines wrap anew), which leaves the box following its end
  box.addEventListener("scroll", () => { if (size() === sized) following = atTheEnd(); });
  const keep = () => {
    sized = size();
    if (following && !atTheEnd()) box.scrollTop = box.scrollHeight;
  };
  const watcher = new ResizeObserver(() => (box.isConnected ? keep() : watcher.disconnect()));
  watcher.observe(box);
  for (const list of box.children) watcher.observe(list);
}

// The seat's own turn, said plainly; in a step the server answers for whoever has not answered by a deadline
// (table.decision_deadline), that it is this seat's turn to answer, in the game's words where its catalogue
// has them ("yourTurnToAnswer"): the clock's "then a bot answers for you" after a line naming only the
// others' thinking read as if nothing was asked of the person, and a bot answered for them
function yourTurnBanner(table, tr) {
  const answering = table.decision_deadline !== null && table.decision_deadline !== undefined;
  return answering ? tr.ui("yourTurnToAnswer") : t("yourTurn");
}

// Who the table waits for: people by their seat, bots as thinking ("P3 is thinking…") while their turn
// lasts; it says only who is to act, which every seat sees anyway
function waitingBanner(table, toAct) {
  const bots = toAct.filter((s) => table.seats[s]?.kind === "bot").map(seatLabel);
  const people = toAct.filter((s) => table.seats[s]?.kind !== "bot").map(seatLabel);
  const parts = [];
  if (people.length) parts.push(t("waitingFor", { who: listOf(people) }));
  if (bots.length) parts.push(h("span", { class: "bot-thinking" }, t("botThinking", { who: listOf(bots), count: bots.length })));
  return parts.length > 1 ? [parts[0], " · ", parts[1]] : parts[0] || "";
}

// The turn clock every seat and spectator sees: one's own on one's turn, else that of the seat on turn
function clockShown(table, view, seat, answeredForYou = false) {
  if (!table.clock || table.status !== "playing") return null;
  // a step the server answers for whoever has not answered (table.decision_deadline): its time says what
  // happens when it runs out, to the seat with a choice ("then a bot answers for you") and to the others
  // ("answered within 25 s at the latest"), never a bare "25 s left"; a seat the server answers for (it has
  // no choice: a sale offer for a card it does not hold) is told the table's time, not "then a bot answers
  // for you" under a banner naming only the others, which read as a turn it had missed
  if (table.decision_deadline !== null && table.decision_deadline !== undefined) {
    const choosing = (view.to_act || []).includes(seat) && !answeredForYou;
    return { seconds: table.decision_deadline, who: null, decision: choosing ? "decisionLeftForYou" : "decisionLeftForTable" };
  }
  // one's own clock also while the server answers for one: the step's time, the same for every person
  if ((view.to_act || []).includes(seat) && table.clock[seat] !== undefined) return { seconds: table.clock[seat], who: null };
  const onTurn = (view.to_act || []).find((s) => table.clock[s] !== undefined);
  return onTurn === undefined ? null : { seconds: table.clock[onTurn], who: seatLabel(onTurn) };
}

// --- hints: what the hard bot would play, searched on the asking seat's sampled worlds only -----------
let lastHint = null;
let shownPosition = null;  // the position the page shows now (drawTable)
let hintAsked = null;  // the position a hint is being worked out for: one at a time, as the server allows

let hintDone = Promise.resolve();  // the hint request under way: the server works out one per table at a time

// The Hint button, "Thinking…" while a hint is being worked out for the decision on screen (also after a
// redraw: another seat's sealed bid changes the position, and the server answers for the position it finds).
// A hint asked before the seat's own move is for a decision made: it closes nothing (a newcomer's press right
// after their turn came back fell on a closed "Thinking…" while the hint for their last move was refused), and
// a press waits for it, then asks
function hintButton(tableId, token, position, area, tr) {
  const busy = hintAsked !== null;
  return h("button", { id: "hint", title: t("hintHelp"), disabled: busy ? true : null, onclick: () => askHint(tableId, token, position, area, tr) },
    busy ? t("hintThinking") : t("hint"));
}

const HINT_TRIES = 3;  // a hint that comes back for a position the table has left is asked for again, so often

// A hint asked for follows its decision until the seat moves: where another seat's sealed bid changed what
// the seat knows (a new position, though the same decision), the hint shown is asked for again by itself, the
// last one shown meanwhile. A hint shown once and gone at the next seal left nothing on a phone (a newcomer
// pressed Hint as a round of sealed bids began, twice in 18 presses: the answer came for the position between the
// bots' seals and the next seal took it away)
let hintWanted = null;  // the table whose seat asked for a hint for the decision it faces now

function hintFollowed(tableId, position) {
  if (!lastHint) return false;
  return lastHint.position === position || (hintWanted === tableId && lastHint.position.startsWith(`${tableId}:`));
}

function hintAgain(tableId, token, position, area, tr) {
  if (hintWanted !== tableId || hintAsked !== null || !lastHint || lastHint.position === position) return;
  askHint(tableId, token, position, area, tr);
}

function askHint(tableId, token, position, area, tr) {
  hintWanted = tableId;
  const asked = hintAsked = { position, tries: 1 };
  const button = area.querySelector("#hint");
  if (button) { button.disabled = true; button.textContent = t("hintThinking"); }
  hintDone = hintDone.then(() => hintFor(tableId, token, asked, area, tr));
  return hintDone;
}

async function hintFor(tableId, token, asked, area, tr) {
  try {
    const advice = await api(`/api/tables/${tableId}/hint`, { method: "POST", headers: { "X-Seat-Token": token } });
    // the server works a hint out again where the position changed meanwhile: it is for the position it names
    lastHint = { ...advice, position: `${tableId}:${advice.position}` };
    // a hint for a position gone is for a decision no longer faced: it is not shown (one the page has not
    // drawn yet is shown when it is)
    if (lastHint.position === shownPosition) {
      const head = area.querySelector(".table-head");
      area.querySelector(".hint-box")?.remove();
      if (head) head.after(hintBox(lastHint, tr));
    } else if (hintAsked === asked) {
      // the table moved on meanwhile (the bots sealed their bids one by one as a round began: the server
      // answered for a position between): once the page has drawn where the table is, the hint shows if it
      // is for it, else it is asked for again, HINT_TRIES times in all, "Thinking…" all along (a newcomer
      // pressed Hint as a round began and saw nothing, three times in two games)
      const awaited = lastHint;
      setTimeout(() => againOrSaid(tableId, token, asked, awaited, area, tr), 1500);
      return;
    }
  } catch (error) {
    // refused for a decision the seat has made since (it moved while the hint was worked out: "it is not
    // P1's turn") is no news to the person, who moved on
    if (hintAsked === asked) toast(error.message);
  }
  hintReady(asked, area);
}

function againOrSaid(tableId, token, asked, awaited, area, tr) {
  if (hintAsked !== asked) return;  // the seat moved, or a newer press is under way
  if (lastHint === awaited && awaited.position !== shownPosition) {
    if (asked.tries < HINT_TRIES) {
      asked.tries += 1;
      hintDone = hintDone.then(() => hintFor(tableId, token, asked, area, tr));
      return;
    }
    toast(t("hintStale"), "info");
  }
  hintReady(asked, area);
}

// the Hint button open again, unless the hint was forgotten at the seat's move or a newer press is under way
function hintReady(asked, area) {
  if (hintAsked !== asked) return;
  hintAsked = null;
  const now = area.querySelector("#hint");  // the button drawn since, if the page was redrawn meanwhile
  if (now) { now.disabled = false; now.textContent = t("hint"); }
}

// What the page holds of a move in the making (a bid's cards, not yet sent: the drawing's `held`) is no step
// left to play: a hint whose plan holds them all says the rest ("add A → add B → bid" with A held: "add B →
// bid"; it repeated "add A", which did nothing: nc20). Held moves the plan does not have leave it whole: it
// is the hint for the move as the table knows it
let heldOnPage = () => [];
let shownTr = null;
function unheld(plan) {
  const rest = [...plan];
  for (const move of heldOnPage()) {
    const at = rest.indexOf(move);
    if (at < 0) return plan;
    rest.splice(at, 1);
  }
  return rest;
}

// a move held or let go on the page (the drawing says so) redraws the hint shown for it
document.addEventListener("merchantry:held", () => {
  const box = document.querySelector(".hint-box:not(.renewing)");
  if (box && lastHint && lastHint.position === shownPosition && shownTr) box.replaceWith(hintBox(lastHint, shownTr));
});

// the hinted move in words, step by step; its notation beneath, for people who type moves. A hint for the
// decision on screen from before another seat's seal is shown "busy" while it is asked for again
function hintBox(advice, tr, renewing = false) {
  const plan = unheld(advice.plan);
  return h("div", { class: renewing ? "hint-box renewing" : "hint-box", role: "status", "aria-busy": renewing ? "true" : null },
    // a guided first game's step: the lesson's move, which the hard bot need not prefer (its analysis once
    // marked a move the hint had called the hard bot's, issue 32, fifteenth pass)
    h("strong", {}, `${t(advice.taught ? "hintLesson" : "hintSays")} `), plan.map((step, i) => h("span", {}, i ? " → " : "",
      h("span", { class: "hint-step", "data-notation": step, title: step }, tr.move(step)))),
    h("div", { class: "notation muted" }, `${t("notationToType")} `, plan.flatMap((step, i) => [i ? " · " : "", h("code", {}, step)])),
    h("div", { class: "muted" }, t("hintChance", { chance: Math.round(advice.chance * 100), low: Math.round(advice.low * 100), high: Math.round(advice.high * 100) })),
    // a hint said 24% before the sealed bids were shown and 2% after: a newcomer took the first for a promise
    // (a certainty, nothing hidden any more, says no such thing)
    advice.certain ? null : h("div", { class: "muted hint-knowledge" }, t("hintKnowledge", { chance: Math.round(advice.chance * 100) })),
    // why the box fades and may change (a newcomer saw the hint re-think after a bot sealed, its move and chance
    // moving, and took it for the hint's whim: issue 32, sixteenth pass)
    renewing ? h("div", { class: "hint-renewing" }, t("hintRenewing")) : null);
}

// The turn clock counts down on the page between the server's messages (the server decides when time is up),
// in seconds under two minutes, else in days, hours and minutes; so do the time banks of the seats on turn
let countdown = null;
function startCountdown(area, clock, table) {
  clearInterval(countdown);
  const banner = area.querySelector(".table-head .banner");
  if (!clock || !banner) return;
  const base = banner.textContent;
  const since = Date.now();
  const deadline = since + clock.seconds * 1000;
  const tick = () => {
    const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    const said = clock.decision ? t(clock.decision, { seconds: left, count: left }) : left < 120
      ? (clock.who ? t("timeLeftFor", { seat: clock.who, seconds: left }) : t("timeLeft", { seconds: left }))
      : (clock.who ? t("timeLeftForIn", { seat: clock.who, left: duration(left, t) }) : t("timeLeftIn", { left: duration(left, t) }));
    banner.textContent = `${base} · ${said}`;
    banner.classList.toggle("hurry", left <= 10);
    area.querySelector("#time-banks")?.replaceWith(banksLine(table, t, since));
  };
  tick();
  countdown = setInterval(tick, 1000);
}

// Where focus was: the control itself and, inside a group of cards (data-focus-group), its place there, so
// that focus stays in the hand when the card it was on has left it (added to a bid)
function focusMemory(node) {
  const group = node.closest("[data-focus-group]");
  // a box being typed in keeps its caret too (its text is kept by its own drawing: moveDraft)
  if (!group && node.type === "text") return { key: focusKey(node), caret: [node.selectionStart, node.selectionEnd] };
  if (!group) return { key: focusKey(node) };
  return { key: focusKey(node), group: group.dataset.focusGroup, index: [...group.querySelectorAll("button")].indexOf(node) };
}

function refocus(area, memory) {
  const group = memory.group ? area.querySelector(`[data-focus-group="${CSS.escape(memory.group)}"]`) : null;
  // the same control in the same place: a card of the hand stays in the hand, a button of the moves panel
  // (the same move) in the panel
  const same = memory.key ? [...area.querySelectorAll(memory.key)] : [];
  let again = group ? same.find((node) => group.contains(node)) : same.find((node) => !node.closest("[data-focus-group]")) || same[0];
  if (!again && group) {
    const members = [...group.querySelectorAll("button:not([disabled])")];
    again = members[Math.min(memory.index, members.length - 1)];
  }
  if (again) again.focus({ preventScroll: true });
  if (again && memory.caret && again.type === "text") again.setSelectionRange(...memory.caret);
}

function focusKey(node) {
  if (node.dataset && node.dataset.move) return `[data-move="${CSS.escape(node.dataset.move)}"]`;
  if (node.id) return `#${CSS.escape(node.id)}`;
  const label = node.getAttribute && node.getAttribute("aria-label");
  return label ? `[aria-label="${CSS.escape(label)}"]` : null;
}

// The same game again, the same seats (people are invited anew, bots stay), from the end screen
async function rematch(table) {
  const seats = table.seats.map((s) => (s.kind === "bot" ? { kind: "bot", bot: s.bot } : { kind: "human" }));
  const name = localStorage.getItem("merchantry:name") || t("defaultName");
  try {
    const created = await api("/api/tables", { method: "POST", body: JSON.stringify({ game: table.game, players: seats.length, seats, name, turn_seconds: table.turn_seconds || 0, total_seconds: table.total_seconds || 0 }) });
    save(created.id, { seat: created.seat, token: created.token, host: created.host_token, invites: created.invites });
    history.pushState({}, "", `/table/${created.id}`);
    route();
  } catch (error) { toast(error.message); }
}

// The host's seat list: each absent friend's invite link, and the choice to give a seat to a bot of some
// level (asked again before it is done: the friend cannot come back to it)
function hostPanel(tableId, table, mine) {
  const bots = ((gamesList || []).find((g) => g.name === table.game) || { bots: ["greedy"] }).bots;
  const rows = table.seats.map((s) => {
    const invite = (mine.invites || []).find((i) => i.seat === s.seat);
    const open = s.kind === "human" && !s.joined && invite;  // a seat given to a bot has no invite any more
    const link = open ? `${location.origin}/table/${tableId}?seat=${s.seat}&invite=${invite.invite}` : null;
    const level = h("select", { class: "bot-level", "data-seat": s.seat, "aria-label": t("botLevelFor", { seat: seatLabel(s.seat) }) },
      bots.map((b) => h("option", { value: b, selected: b === (bots.includes("medium") ? "medium" : bots[0]) }, botLabel(b))));
    const give = async () => {
      const bot = level.value;
      if (window.confirm && !window.confirm(t("handToBotConfirm", { seat: seatLabel(s.seat), bot: botLabel(bot) }))) return;
      try { await api(`/api/tables/${tableId}/seats/${s.seat}/bot`, { method: "POST", body: JSON.stringify({ host_token: mine.host, bot }) }); }
      catch (error) { toast(error.message); }
    };
    return h("li", {}, `${seatLabel(s.seat)}${t("colon")}`, s.kind === "bot" || s.name ? seatHolderNoted(s) : "—",
      link ? [" ", h("input", { class: "invite", readonly: true, value: link, "data-seat": s.seat, "aria-label": t("inviteFor", { seat: seatLabel(s.seat) }), onclick: (e) => e.target.select() }),
        h("button", { onclick: () => navigator.clipboard?.writeText(link).then(() => toast(t("copied"), "info")) }, t("copy"))] : null,
      s.kind === "human" && s.seat !== mine.seat && table.status !== "finished" && table.status !== "closed"
        ? h("span", { class: "give-to-bot" }, " ", level, h("button", { class: "hand-to-bot", "data-seat": s.seat, onclick: give }, t("handToBot"))) : null);
  });
  const close = table.status === "waiting" || table.status === "playing" ? h("button", { class: "danger", id: "close-table",
    onclick: async () => {
      if (window.confirm && !window.confirm(t("closeConfirm"))) return;
      try { await api(`/api/tables/${tableId}/close`, { method: "POST", body: JSON.stringify({ host_token: mine.host }) }); }
      catch (error) { toast(error.message); }
    } }, t("closeTable")) : null;
  // named after what it holds: invite links while a seat awaits its person, else the seats and Close this table
  const invites = rows.some((row) => row.querySelector("input.invite"));
  return h("details", { class: "host", open: table.status === "waiting" }, h("summary", {}, t(invites ? "invites" : "hostSeats")), h("ul", {}, rows), close);
}

// --- replays -----------------------------------------------------------------------------------------
async function replayPage(tableId) {
  let at = 0;
  let viewer = ""; // "" = spectators; after the end any seat's point of view may be replayed
  const area = h("div", { id: "replay" });
  main.replaceChildren(area);
  // a player who just finished replays it as their seat saw it (their own hidden cards): the seat the server
  // gives this browser's token, never one read from the address; a spectator's link opens as spectators see it
  const held = saved(tableId).token;
  if (held) {
    const own = await api(`/api/tables/${tableId}`, { headers: { "X-Seat-Token": held } }).catch(() => null);
    if (own && own.seat !== null && own.seat !== undefined) viewer = String(own.seat);
  }
  async function show(to) {
    try {
      const step = await api(`/api/tables/${tableId}/replay?upto=${to}${viewer === "" ? "" : `&seat=${viewer}`}`);
      at = step.at;
      const [renderer, tr] = await Promise.all([drawingFor(step.game), translatorFor(step.game)]);
      const info = await api(`/api/tables/${tableId}`);
      const payload = { table: info.table, seat: step.seat, view: step.view, legal: [] };
      words = tr;
      roundStarts = step.rounds || [];
      const seatChoice = h("select", { id: "replay-seat", "aria-label": t("pointOfView"), onchange: (e) => { viewer = e.target.value; show(at); } },
        h("option", { value: "" }, t("spectators")),
        info.table.seats.map((s) => h("option", { value: String(s.seat), selected: String(s.seat) === viewer ? true : null }, noted(info.table, s.seat))));
      area.replaceChildren(...[
        // which game this is, and the way back to its table (the replay opened on a bare bar of buttons)
        h("div", { class: "table-head" }, h("h1", {}, gameTitle(info.table.game, info.table.title)), h("span", { class: "muted" }, t("replay")),
          h("a", { id: "replay-back", href: `/table/${tableId}` }, t("backToTable"))),
        h("div", { class: "replay-bar" },
          h("button", { onclick: () => show(0) }, t("first")),
          h("button", { id: "replay-prev", onclick: () => show(at - 1) }, t("prev")),
          h("span", { id: "replay-at" }, `${t("move")} ${at} / ${step.moves}`),
          h("button", { id: "replay-next", onclick: () => show(at + 1) }, t("next")),
          h("button", { id: "replay-last", onclick: () => show(step.moves) }, t("last")),
          h("button", { id: "replay-prev-round", onclick: () => show([...step.rounds].reverse().find((r) => r < at) ?? 0) }, t("prevRound")),
          h("button", { id: "replay-next-round", onclick: () => show(step.rounds.find((r) => r > at) ?? step.moves) }, t("nextRound")),
          // the move's player: a person's seat a bot finished is the person's up to the move the bot took over
          step.move ? h("span", { class: "muted", id: "replay-move", title: step.move.text }, ` ${seatName(info.table, step.move.seat, at)}${t("colon")}${tr.move(step.move.text)}`) : null,
          h("label", {}, ` ${t("pointOfView")} `, seatChoice)),
        optionsLine(info.table, tr),
        renderer.render(payload, () => {}, tr.ui, tr),
        // each line numbered by the move that wrote it, as the bar above and the analysis number moves (the
        // deal's lines, before the first move, by none); the lines of the move shown are marked
        h("div", { class: "log" }, h("h3", {}, t("log")), h("ol", { class: "by-move" }, (step.view.log || []).map((entry, i) => {
          const move = (step.log_moves || [])[i] ?? 0;
          return h("li", { class: move === at && at > 0 ? "current" : "", value: move || null, "data-move-number": String(move) },
            logText(entry, tr, info.table));
        }))),
        analysisPanel(analysis, info.table, startAnalysis, showFromAnalysis, tr, step.rounds || []),
      ].filter(Boolean));  // a part with nothing to say (no variants) is left out, not written as "null"
      // the log follows the move shown: its newest line in view, inside the log's own box
      const box = area.querySelector(".log");
      if (box) followTheEnd(box);
      table = info.table;
    } catch (error) {
      // a game still in play has no replay yet: said in words, with the way back (the bare server sentence
      // "replays are for finished games" stood alone on the page)
      // (a table its host closed never ends: it has none, and says so)
      if (error.status === 409 && !table) {
        const info = await api(`/api/tables/${tableId}`).catch(() => null);
        const closed = info?.table?.status === "closed";
        area.replaceChildren(h("p", { class: "banner", role: "status" }, t(closed ? "replayClosed" : "replayNotYet")),
          h("p", {}, h("a", { href: `/table/${tableId}` }, t("backToTable"))));
        return;
      }
      toast(error.message);
    }
  }
  // a move clicked in the analysis (a key moment, a marked move) is shown, and the board brought into view:
  // it is far above the panel, and a newcomer saw nothing happen where they clicked
  const showFromAnalysis = (to) => show(to).then(() => area.querySelector(".replay-bar")?.scrollIntoView({ block: "start" }));
  let analysis = null;
  let table = null;
  let words = null;  // the game's translator: moves are shown in words
  let roundStarts = [];  // after how many moves each round begins: the chart marks them
  let busy = null;  // why the server refused to start one (429: too many analyses), said in the panel
  const redraw = () => { const old = area.querySelector("#analysis"); if (old && table) old.replaceWith(analysisPanel(analysis, table, startAnalysis, showFromAnalysis, words, roundStarts, busy)); };
  // the analysis as it goes: its place in the queue, then its decisions as they are judged
  async function follow() {
    redraw();
    while (analysis.status === "queued" || analysis.status === "running") {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (location.pathname !== `/replay/${tableId}`) return;
      analysis = await api(`/api/tables/${tableId}/analysis`);
      redraw();
    }
  }
  async function startAnalysis() {
    try {
      busy = null;
      analysis = await api(`/api/tables/${tableId}/analysis`, { method: "POST" });
      await follow();
    } catch (error) {
      if (error.status !== 429) { toast(error.message); return; }
      // the server's limits (work.py): this client's analysis still running, or its queue full
      const full = error.why?.key === "queue_full";
      busy = full ? t("analysisQueueFull", { count: error.why.params.waiting }) : t("analysisYoursWaiting");
      analysis = null;
      redraw();
      area.querySelector("#analysis-busy")?.focus();
      // one's own earlier analysis still under way: this one is asked for again by itself until the server
      // takes it (a newcomer had to find out when the first was done, and press again)
      if (!full) setTimeout(() => { if (location.pathname === `/replay/${tableId}` && !analysis && busy) startAnalysis(); }, ANALYSIS_RETRY_MS);
    }
  }
  // one already asked for (by anyone: it is kept with the game) is shown at once, or followed
  async function storedAnalysis() {
    const response = await fetch(`/api/tables/${tableId}/analysis`);
    if (!response.ok) return;
    const body = await response.json();
    if (body.status === "none") return;  // none asked for yet: the panel offers to start one
    analysis = body;
    try { await follow(); } catch (error) { toast(error.message); }
  }
  document.onkeydown = (e) => {
    if (location.pathname !== `/replay/${tableId}`) return;
    if (e.key === "ArrowRight") show(at + 1);
    if (e.key === "ArrowLeft") show(at - 1);
  };
  // come from the end's "Computer analysis": the panel in view, and the analysis asked for if none is kept
  const asked = location.hash === "#analysis";
  show(0)
    .then(() => { if (asked) area.querySelector("#analysis")?.scrollIntoView({ block: "start" }); return storedAnalysis(); })
    .then(() => { if (asked && !analysis && !busy) startAnalysis(); });
}

// --- post-game analysis: each seat's chance to win by the hard bot, its preferred moves and the marks ----
const ANALYSIS_RETRY_MS = 5000;  // one's own earlier analysis still under way: asked again this often
const SEAT_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"];
const SEAT_DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4"];  // colour-blind safe: a pattern too
const MARK_DOTS = { blunder: 4, mistake: 3, inaccuracy: 2 };  // a mark's dot on the chart, its radius
const LESSON_SQUARE = { width: 7, height: 7, fill: "#fff", "stroke-width": 1.5 };  // a lesson's move, chart and legend

function analysisPanel(analysis, table, start, show, tr, rounds = [], busy = null) {
  if (!analysis) {
    return h("section", { id: "analysis" }, h("button", { id: "analyse", onclick: start }, t("analyse")), " ",
      h("span", { class: "muted" }, t("analyseHelp")),
      busy ? h("p", { id: "analysis-busy", class: "error", role: "alert", tabindex: "-1" }, busy) : null);
  }
  if (analysis.status !== "done") {
    // before its first decision is judged (seconds of search, more on a busy machine: its worker gets the CPU
    // nobody else wants) a running analysis says so beside a moving bar, not a still "0 / 202 moves"
    const starting = analysis.status === "running" && !analysis.done;
    const text = analysis.status === "failed" ? t("analysisFailed")
      : analysis.status === "queued" ? t("analysisQueued", { ahead: analysis.position ?? 0 })
        : starting ? t("analysisStarting", { total: analysis.total })
          : t("analysing", { done: analysis.done, total: analysis.total });
    return h("section", { id: "analysis" },
      h("h2", {}, t("analysisTitle")),
      h("p", { role: "status" }, h("progress", { max: analysis.total, value: starting ? null : analysis.done, "aria-label": t("analyse") }), " ", text),
      h("p", { class: "muted", id: "analysis-help" }, analysisHelp(tr)),
      (analysis.decisions || []).length ? chanceChart(analysis, table, tr, rounds) : null);
  }
  const marked = analysis.decisions.filter((d) => d.mark);
  const rows = marked.map((d) => h("tr", { class: `mark-${d.mark}` },
    h("td", {}, h("button", { class: "link", onclick: () => show(d.moves[0]), title: t("showPosition"), "data-move-number": String(d.moves[0]) }, moveNumbers(d.moves))),
    h("td", {}, seatName(table, d.seat, d.moves[0])), h("td", {}, wholeMove(d.played, tr)), h("td", {}, wholeMove(d.preferred, tr)),
    h("td", { class: "num" }, chanceCell(d)), h("td", {}, t(`mark_${d.mark}`))));
  const totals = analysis.summary.map((r) => h("tr", {}, h("td", {}, noted(table, r.seat)), h("td", { class: "num" }, String(r.decisions)),
    h("td", { class: "num" }, String(r.inaccuracy)), h("td", { class: "num" }, String(r.mistake)), h("td", { class: "num" }, String(r.blunder)),
    h("td", { class: "num mean-loss" }, meanLoss(r))));
  // per seat, its moments one under another (run on with "; ", a long one left the separator alone on a
  // line), in the order of the game as the server lists them (round 2 before round 7)
  const moments = (analysis.moments || []).flatMap((mine, seat) => mine.length
    ? [h("li", {}, h("strong", {}, `${seatName(table, seat)}${t("colon")}`), h("ul", { class: "seat-moments" }, mine.map((m) => h("li", {}, momentButton(m, seat, table, tr, show)))))]
    : []);
  return h("section", { id: "analysis" },
    h("h2", {}, t("analysisTitle")),
    h("p", { class: "muted", id: "analysis-help" }, analysisHelp(tr)),
    analysis.decisions.some((d) => d.taught) ? h("p", { class: "muted lesson-moves" }, t("analysisLesson")) : null,
    // the section is always there, saying when it has none (a game without one left a newcomer looking for it)
    h("div", { class: "key-moments" }, h("h3", {}, t("keyMoments")),
      moments.length ? h("ul", {}, moments) : h("p", { class: "no-key-moments" }, t("noKeyMoments"))),
    chanceChart(analysis, table, tr, rounds),
    // six columns do not fit a phone either: the summary stacks like the marks (the last column was cut)
    h("div", { class: "table-scroll" }, stackable(h("table", { class: "scores analysis-summary" }, h("thead", {}, h("tr", {}, ["seat", "decisions", "inaccuracies", "mistakes", "blunders", "meanLoss"].map((k) => h("th", {}, t(k))))), h("tbody", {}, totals)))),
    marked.length ? h("div", { class: "table-scroll" }, stackable(h("table", { class: "scores analysis-marks" },
      h("thead", {}, h("tr", {}, ["move", "seat", "playedMove", "preferred", "chance", "mark"].map((k) => h("th", {}, t(k))))), h("tbody", {}, rows))))
      : h("p", {}, t("noMarks")));
}

// what a decision is, said by the game's own catalogue (its analysisDecision: a sealed bid or an exchange, a
// whole turn of buys and sells...), else the platform's words for any game
function analysisHelp(tr) {
  const ui = tr ? tr.ui : t;
  return ui("analysisHelp", { decision: ui("analysisDecision") });
}

// a decision's chance before and after it, the after with its 95% interval said in plain words: "40% → 30%
// (likely between 24% and 37%)", as the hints and the lobby say a range
function chanceCell(d) {
  const percent = (x) => String(Math.round(x * 100));
  const [low, high] = d.after_interval.map(percent);
  const text = t("chanceCell", { before: percent(d.before), after: percent(d.after), low, high });
  // it wraps between words, never inside "80% → 68%" nor between a number and its "%" ("80 %" in fr, de)
  return text.replace(/ %/g, "\u00a0%").replace(" → ", "\u00a0→\u00a0");
}

// a seat's mean loss in points of winning chance with its 95% interval in plain words, "2.3 (likely between
// 1.1 and 3.5)": a number shown carries its uncertainty (an analysis stored before the interval was kept
// shows the mean alone)
function meanLoss(row) {
  const points = (x) => decimal(x * 100, 1);
  const interval = row.mean_loss_interval;
  if (!interval) return points(row.mean_loss);
  const [low, high] = interval.map(points);
  return `${points(row.mean_loss)} (${t("likelyRange", { low, high })})`;
}

// A decision's moves by the numbers the replay and the log give them: "17", or "17-19" for a move of several
// steps (the terminal's analysis says them alike); its link shows the replay at its first step
function moveNumbers(moves) {
  return moves.length > 1 ? `${moves[0]}-${moves[moves.length - 1]}` : String(moves[0]);
}

const QUOTED_PLAYS = 1;  // per seat, in a turning point (the others counted: a whole turn may be long)

// a key moment (a seat's costly move) or its turning point (where its chance fell between two of its own
// moves as others played: why a seat that played well lost all the same), in words; a click shows it
function momentButton(m, seat, table, tr, show) {
  if (m.kind === "key") {
    return h("button", { class: "link key-moment", onclick: () => show(m.move), "data-move-number": String(m.move), title: `${t("showPosition")} (${m.played} · ${m.preferred})`, "data-notation": m.played },
      t("keyMoment", { round: m.round, played: t("quoted", { text: moveInWords(m.played, tr) }), preferred: t("quoted", { text: moveInWords(m.preferred, tr) }), points: m.points }));
  }
  // each move of the others in between, in words, after its seat, each seat named once (a seat that played
  // twice, across two rounds, was named twice): "P2 (“take left”, “keep”) and P3 (…)"
  // a seat's first QUOTED_PLAYS moves quoted, the rest counted: a fall over two rounds quoted eleven whole turns,
  // and two turns of buys and sells a seat still ran to five lines
  const seats = new Intl.ListFormat(language(), { type: "conjunction" }).format(playsBySeat(m.moves).map(([other, plays]) => {
    const quoted = plays.slice(0, QUOTED_PLAYS).map((played) => t("quoted", { text: moveInWords(played, tr) }));
    const more = plays.length - quoted.length;
    // "P2 (“take left” and 2 other moves)": a bare "1 more move" after a comma read as part of the quote
    return `${seatName(table, other, m.move)} (${[...quoted, ...(more ? [t("morePlays", { count: more })] : [])].join(" ")})`;
  }));
  return h("button", { class: "link turning-point", onclick: () => show(m.move), "data-move-number": String(m.move), title: `${t("showPosition")} (${m.moves.map((other) => other.played).join(" · ")})`, "data-notation": m.moves[0].played },
    t(m.shared ? "turningPointShared" : m.end ? "turningPointEnd" : "turningPoint", { round: m.round, whose: seatName(table, seat, m.move), from: m.from, to: m.to, seats }));
}

// a whole move in words, its steps each kept on one line (a long sealed bid wraps between its cards); its
// notation in the title, for people who type moves
function wholeMove(text, tr) {
  return h("span", { class: "whole-move", "data-notation": text, title: text },
    text.split(", ").map((step, i) => h("span", {}, i ? ", " : "", h("span", { class: "step" }, tr.move(step)))));
}

// where the move numbers go: about six, at round steps (1, 2, 5 times a power of ten)
function moveTicks(total) {
  const wanted = Math.max(1, total / 6);
  const power = 10 ** Math.floor(Math.log10(wanted));
  const step = [1, 2, 5, 10].map((m) => m * power).find((m) => m >= wanted);
  const ticks = [];
  for (let move = 0; move <= total; move += step) ticks.push(move);
  return ticks;
}

// each round's start (after how many moves it begins) as a faint line, labelled above the chart; at most
// about a dozen labels (`most`), so a long game's rounds stay readable. They sit in their own band at the
// top, above the "100%" line and its label (on a phone "R1" covered "100%")
function roundMarks(rounds, x, y, svg, most) {
  const every = Math.max(1, Math.ceil(rounds.length / most));
  return rounds.flatMap((move, i) => [
    svg("line", { x1: x(move), x2: x(move), y1: y(1), y2: y(0), stroke: "#eee", class: "round-line" }),
    ...(i % every === 0 ? [svg("text", { x: x(move), y: 13, "font-size": 9, "text-anchor": "middle", class: "round-tick", fill: "#666" },
      t("roundShort", { round: i + 1 }))] : []),
  ]);
}

// a seat's line is its own chance, as it knew the game at each of its decisions: before its move (had it
// played the move preferred) and after the move played, each with its 95% interval. It is the chance the
// marks table and the turning points quote: another seat's estimate of it, from that seat's own hand, is a
// different judgement, and a line mixing the two jumped between them (the table said "94% → 3%" where the
// line stood at 60%). So the lines at one move need not add up to 100%: each is judged at its own player's moves,
// from what that player knew (where all is public but the order of a deck, the lines are still judged at
// different moments)
// `before`'s interval: the move played's where it measured higher than the preferred one (Decision.before_interval)
const beforeRange = (d) => (d.after > d.best ? d.after_interval : d.best_interval);

// A finished analysis ends each line at the seat's share of the win, known exactly: a line that stopped at
// the seat's last decision (78%) hid that the others' last moves lost it the game (and where that decision
// ended the game, its chance was from what the seat knew of the others' hidden cards)
function seatPoints(analysis, seat) {
  const points = analysis.decisions.filter((d) => d.seat === seat).flatMap((d) => [
    { move: d.moves[0] - 1, chance: d.before, low: beforeRange(d)[0], high: beforeRange(d)[1] },
    { move: d.move, chance: d.after, low: d.after_interval[0], high: d.after_interval[1] },
  ]);
  const last = points[points.length - 1];
  if (analysis.status === "done" && analysis.result && last && (last.move < analysis.total || last.chance !== analysis.result[seat])) {
    const share = analysis.result[seat];
    points.push({ move: analysis.total, chance: share, low: share, high: share, end: true });
  }
  return points;
}

// A desktop's chart is drawn as many units wide as the page's column is wide (at least 600), and so fills the
// panel at the scale of 1 and its words keep their size: it was drawn 600 wide and held to 40rem, half the panel
function chartWidth() {
  const column = document.querySelector("main");
  if (!column) return 600;
  const style = getComputedStyle(column);
  const inner = column.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return Math.round(Math.min(1100, Math.max(600, inner)));
}

// each seat's chance to win after each decision, over the game's moves
function chanceChart(analysis, table, tr, rounds = []) {
  // a phone draws it narrower, so that its words scale less and stay legible; the chances' labels sit
  // right-aligned in the left margin, the rounds' in a band above the chart (top)
  const phone = window.matchMedia("(max-width: 600px)").matches;
  const W = phone ? 400 : chartWidth(), pad = 44, top = 30, bottom = 44;  // below: the move numbers
  const H = phone ? 220 : Math.round(Math.min(300, Math.max(200, 0.27 * W)));  // taller as it widens, never a strip
  const x = (move) => pad + (W - 2 * pad) * (move / Math.max(1, analysis.total));
  const y = (chance) => H - bottom - (H - bottom - top) * chance;
  const svg = (tag, attrs, ...kids) => {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    node.append(...kids);
    return node;
  };
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chance-chart", role: "img", "aria-label": t("chartLabel") });
  for (const level of [0, 0.5, 1]) {
    chart.append(svg("line", { x1: pad, x2: W - pad, y1: y(level), y2: y(level), stroke: "#ccc", class: "chance-line", "data-level": level }),
      svg("text", { x: pad - 3, y: y(level) + 4, "font-size": 10, "text-anchor": "end", class: "chance-tick" }, `${level * 100}%`));
  }
  const parity = 1 / table.players;
  const parityDash = { stroke: "#999", "stroke-dasharray": "2 4" };
  chart.append(svg("line", { x1: pad, x2: W - pad, y1: y(parity), y2: y(parity), class: "parity-line", ...parityDash }));
  moveTicks(analysis.total).forEach((move) => chart.append(
    svg("line", { x1: x(move), x2: x(move), y1: y(0), y2: y(0) + 4, stroke: "#666" }),
    svg("text", { x: x(move), y: y(0) + 20, "font-size": 10, "text-anchor": "middle", class: "move-tick" }, String(move))));
  chart.append(svg("text", { x: W / 2, y: H - 6, "font-size": 10, "text-anchor": "middle", class: "axis-title" }, t("moveAxis")));
  roundMarks(rounds, x, y, svg, phone ? 8 : 12).forEach((node) => chart.append(node));
  const legend = h("div", { class: "chart-legend" });
  for (let seat = 0; seat < table.players; seat++) {
    const mine = analysis.decisions.filter((d) => d.seat === seat);
    if (!mine.length) continue;
    const colour = SEAT_COLOURS[seat % SEAT_COLOURS.length];
    const dash = SEAT_DASHES[seat % SEAT_DASHES.length];
    const points = seatPoints(analysis, seat);
    // the 95% interval of each chance, as a band behind its line: a number shown carries its uncertainty
    const band = [...points.map((p) => `${x(p.move).toFixed(1)},${y(p.high).toFixed(1)}`),
      ...points.slice().reverse().map((p) => `${x(p.move).toFixed(1)},${y(p.low).toFixed(1)}`)];
    chart.append(svg("polygon", { class: "chance-band", fill: colour, "fill-opacity": 0.12, stroke: "none", points: band.join(" ") }));
    chart.append(svg("polyline", { fill: "none", stroke: colour, "stroke-width": 2, "stroke-dasharray": dash,
      points: points.map((p) => `${x(p.move).toFixed(1)},${y(p.chance).toFixed(1)}`).join(" ") }));
    // every mark a dot, the larger the worse (an inaccuracy listed in the marks had none: nc18); a lesson's
    // move a hollow square, not judged (its drop read as the learner's own slip: nc17, nc18)
    for (const d of mine.filter((m) => m.mark || m.taught)) {
      const said = `${seatName(table, seat, d.move)} ${d.move}${t("colon")}${moveInWords(d.played, tr)} (${t(d.taught ? "chartLessonMove" : `mark_${d.mark}`)})`;
      chart.append(d.taught
        ? svg("rect", { class: "lesson-move", x: x(d.move) - 3.5, y: y(d.after) - 3.5, ...LESSON_SQUARE, stroke: colour }, svg("title", {}, said))
        : svg("circle", { class: `mark-dot mark-${d.mark}`, cx: x(d.move), cy: y(d.after), r: MARK_DOTS[d.mark], fill: colour }, svg("title", {}, said)));
    }
    legend.append(h("span", { class: "legend-item" },
      svg("svg", { width: 28, height: 10 }, svg("line", { x1: 0, x2: 28, y1: 5, y2: 5, stroke: colour, "stroke-width": 2, "stroke-dasharray": dash })),
      ` ${noted(table, seat)}`));
  }
  if (analysis.decisions.some((d) => d.taught)) {
    legend.append(h("span", { class: "legend-item legend-lesson" },
      svg("svg", { width: 28, height: 10 }, svg("rect", { x: 10, y: 1.5, ...LESSON_SQUARE, stroke: "#555" })),
      ` ${t("chartLessonMove")}`));
  }
  // the dotted line named in the legend: a newcomer read it as a line of its own, unexplained
  legend.append(h("span", { class: "legend-item legend-parity" },
    svg("svg", { width: 28, height: 10 }, svg("line", { x1: 0, x2: 28, y1: 5, y2: 5, ...parityDash })),
    ` ${t("evenShare", { percent: Math.round(parity * 100) })}`));
  // the shaded band behind each line, said in words: the range its chance likely lies in
  const bandHelp = h("p", { class: "muted chart-band-help" }, t("chartBand"));
  const perspective = h("p", { class: "muted chart-perspective" }, t("chartPerspective"));
  const figure = h("figure", { class: "chart" }, chart, h("figcaption", {}, legend, perspective, bandHelp));
  figure.redraw = () => chanceChart(analysis, table, tr, rounds);
  return figure;
}

// a chart is drawn to its column's width: when the window changes size it is drawn again, else a narrowed
// window scaled the drawing down and its words with it
let chartResize = null;
window.addEventListener("resize", () => {
  clearTimeout(chartResize);
  chartResize = setTimeout(() => document.querySelectorAll("figure.chart").forEach((old) => {
    if (old.redraw) old.replaceWith(old.redraw());
  }), 150);
});

// --- routing -----------------------------------------------------------------------------------------
async function route() {
  if (addressLanguage()) setLanguage(addressLanguage());  // kept: the next pages (links drop the query) follow
  await loadLanguage();
  gamesList = gamesList || await api("/api/games");
  knowTitles(gamesList);
  header();
  document.documentElement.lang = language();
  const path = location.pathname;
  let match;
  if ((match = path.match(/^\/table\/([\w-]+)$/))) return tablePage(match[1]);
  if ((match = path.match(/^\/replay\/([\w-]+)$/))) return replayPage(match[1]);
  if ((match = path.match(/^\/learn\/(\w+)$/))) return learn(match[1]);
  if ((match = path.match(/^\/player\/(.+)$/))) return profilePage(main, api, decodeURIComponent(match[1]), await api("/api/games"));
  if ((match = path.match(/^\/leaderboard\/([\w-]+)$/))) return leaderboardPage(main, api, match[1], await api("/api/games"));
  if (path === "/account") return accountPage(main, toast, () => { history.pushState({}, "", "/"); route(); });
  if (socket) { socket.close(); socket = null; }
  return lobby();
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a");
  if (link && link.origin === location.origin && !link.target && !link.pathname.startsWith("/rules")) {
    event.preventDefault();
    history.pushState({}, "", link.pathname + link.search + link.hash);  // (#analysis: the replay's panel)
    route();
  }
});
window.addEventListener("popstate", route);
route();

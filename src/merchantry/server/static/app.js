// Merchantry in the browser: the lobby, a table (live over a websocket) and replays.
import { h, seatLabel, seatName } from "./dom.js";
import { LANGUAGES, language, setLanguage, t } from "./i18n.js";
import * as generic from "./generic.js";
import * as byzanz from "./byzanz.js";
import * as grandBazaar from "./grand_bazaar.js";
import * as money from "./money.js";

const RENDERERS = { money, byzanz, grand_bazaar: grandBazaar };
const main = document.getElementById("main");

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
    headers: { "Content-Type": "application/json", ...(options.headers || {}) },
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const reason = body.error || (Array.isArray(body.detail) ? body.detail.map((d) => d.msg).join("; ") : body.detail);
    throw new Error(reason || response.statusText);
  }
  return body;
}

function toast(text, kind = "error") {
  const node = h("div", { class: `toast ${kind}`, role: "alert" }, text);
  document.body.append(node);
  setTimeout(() => node.remove(), 5000);
}

function header() {
  const select = h("select", { id: "lang", "aria-label": "Language", onchange: (e) => { setLanguage(e.target.value); route(); } },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === language() }, name)));
  const bar = document.getElementById("bar");
  bar.replaceChildren(
    h("a", { href: "/", class: "brand" }, "Merchantry"),
    h("a", { href: "/" }, t("lobby")),
    h("a", { href: "/rules/money", target: "_blank" }, `${t("rules")}: Money`),
    h("span", { class: "spacer" }),
    select,
  );
}

// --- lobby -------------------------------------------------------------------------------------------
async function lobby() {
  const games = await api("/api/games");
  const tables = await api("/api/tables");
  const gameSelect = h("select", { id: "game", name: "game" }, games.map((g) => h("option", { value: g.name, selected: g.name === "money" }, g.title)));
  const playersInput = h("input", { id: "players", type: "number", min: 2, max: 7, value: 4 });
  const seatsBox = h("div", { id: "seats", class: "seat-choices" });
  const clockInput = h("input", { id: "turn-seconds", type: "number", min: 0, max: 3600, value: 0 });
  const nameInput = h("input", { id: "name", maxlength: 40, value: localStorage.getItem("merchantry:name") || "", placeholder: t("yourName"), required: true });

  function drawSeats() {
    const game = games.find((g) => g.name === gameSelect.value);
    playersInput.min = game.min_players;
    playersInput.max = game.max_players;
    const n = Math.max(game.min_players, Math.min(game.max_players, Number(playersInput.value) || game.min_players));
    playersInput.value = n;
    const kinds = [["human", t("human")], ...game.bots.map((b) => [`bot:${b}`, `${b} (bot)`])];
    const previous = [...seatsBox.querySelectorAll("select")].map((sel) => sel.value);  // keep earlier choices
    const defaultBot = `bot:${game.bots.includes("greedy") ? "greedy" : game.bots[0]}`;
    const choice = (s) => {
      const kept = previous[s];
      if (kept && kinds.some(([value]) => value === kept)) return kept;
      return s === 0 ? "human" : defaultBot;
    };
    seatsBox.replaceChildren(...Array.from({ length: n }, (_, s) => h("label", {}, `${t("seat")} ${seatLabel(s)} `,
      h("select", { "data-seat": s, "aria-label": `${t("seat")} ${seatLabel(s)}` },
        kinds.map(([value, label]) => h("option", { value, selected: value === choice(s) }, label))))));
  }
  gameSelect.addEventListener("change", drawSeats);
  playersInput.addEventListener("change", drawSeats);
  drawSeats();

  async function create(event) {
    event.preventDefault();
    const seats = [...seatsBox.querySelectorAll("select")].map((sel) => sel.value === "human" ? { kind: "human" } : { kind: "bot", bot: sel.value.slice(4) });
    const name = nameInput.value.trim() || "Host";
    localStorage.setItem("merchantry:name", name);
    try {
      const created = await api("/api/tables", { method: "POST", body: JSON.stringify({ game: gameSelect.value, players: seats.length, seats, name, turn_seconds: Number(clockInput.value) || 0 }) });
      save(created.id, { seat: created.seat, token: created.token, host: created.host_token, invites: created.invites });
      history.pushState({}, "", `/table/${created.id}`);
      route();
    } catch (error) { toast(error.message); }
  }

  const rows = tables.map((table) => h("tr", {},
    h("td", {}, table.title),
    h("td", {}, table.seats.map((s) => s.kind === "bot" ? `${s.bot} (bot)` : s.name || "…").join(", ")),
    h("td", {}, t(`status_${table.status}`)),
    h("td", {}, table.result ? table.result.winners.map((w) => `${seatLabel(w)} ${table.result.scores[w]}`).join(", ") : ""),
    h("td", {}, h("a", { href: `/table/${table.id}` }, table.status === "finished" ? t("open") : t("watch")),
      table.status === "finished" ? [" · ", h("a", { href: `/replay/${table.id}` }, t("replay"))] : []),
  ));
  main.replaceChildren(
    h("h1", {}, t("newTable")),
    h("form", { id: "create", class: "card-panel", onsubmit: create },
      h("label", {}, `${t("game")} `, gameSelect),
      h("label", {}, `${t("players")} `, playersInput),
      seatsBox,
      h("label", {}, `${t("turnClock")} `, clockInput),
      h("label", {}, `${t("yourName")} `, nameInput),
      h("button", { type: "submit", class: "primary" }, t("create"))),
    h("h2", {}, t("tables")),
    h("table", { class: "tables" }, h("tbody", {}, rows)),
  );
}

// --- a table -----------------------------------------------------------------------------------------
let socket = null;

async function tablePage(tableId) {
  const params = new URLSearchParams(location.search);
  const mine = saved(tableId);
  if (!mine.token && params.get("invite")) {
    await joinForm(tableId, Number(params.get("seat")), params.get("invite"));
    return;
  }
  const area = h("div", { id: "table" });
  main.replaceChildren(area);
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

function connect(tableId, token, area) {
  if (socket) socket.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const url = `${scheme}://${location.host}/ws/tables/${tableId}${token ? `?token=${encodeURIComponent(token)}` : ""}`;
  socket = new WebSocket(url);
  const mySocket = socket;
  const send = (action) => mySocket.send(JSON.stringify({ type: "act", action }));
  mySocket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") drawTable(tableId, message, send, area);
    else if (message.type === "refused") toast(`${t("refused")}: ${message.reason}`);
    else if (message.type === "revoked" || message.type === "error") {
      // the seat is no longer held by this browser (given to a bot, or a stale token): watch instead
      toast(message.type === "revoked" ? message.reason : `${t("refused")}: ${message.reason}`);
      save(tableId, { seat: null, token: null });
      token = null;
    }
  };
  mySocket.onclose = () => {
    if (socket === mySocket && location.pathname === `/table/${tableId}`) setTimeout(() => connect(tableId, token, area), 1500);
  };
}

function drawTable(tableId, payload, send, area) {
  const { table, seat, view, legal } = payload;
  const renderer = RENDERERS[table.game] || generic;
  const mine = saved(tableId);
  const lastLog = area.querySelector(".log ol");
  const seen = lastLog ? lastLog.children.length : (view.log || []).length;
  let banner;
  if (table.status === "waiting") banner = t("waitingFor", { who: table.waiting_for.map(seatLabel).join(", ") });
  else if (table.status === "finished") banner = `${t("winner")}: ${table.result.winners.map((w) => seatName(table, w)).join(", ")}`;
  else if (seat === null) banner = t("spectator");
  else if ((view.to_act || []).includes(seat)) banner = t("yourTurn") + (table.clock && table.clock[seat] !== undefined ? ` · ${Math.max(0, Math.round(table.clock[seat]))} s` : "");
  else banner = t("waitingFor", { who: view.to_act.map(seatLabel).join(", ") });

  const moveInput = h("input", { id: "move", placeholder: t("typeMove"), maxlength: 200, "aria-label": t("typeMove") });
  const moveForm = h("form", { class: "move-form", onsubmit: (e) => { e.preventDefault(); if (moveInput.value.trim()) send(moveInput.value.trim()); } },
    moveInput, h("button", { type: "submit" }, t("send")));
  const buttons = h("div", { class: "legal" }, legal.map((move, i) => h("button", { "data-move": move, onclick: () => send(move), title: `${i + 1}` }, move)));

  const log = h("div", { class: "log" }, h("h3", {}, t("log")),
    h("ol", {}, (view.log || []).map((line, i) => h("li", { class: i >= seen ? "new" : "" }, line))));

  area.replaceChildren(...[
    h("div", { class: "table-head" }, h("h1", {}, table.title), h("div", { class: "banner", role: "status" }, banner),
      table.status === "finished" ? h("a", { href: `/replay/${tableId}` }, t("replay")) : null),
    renderer.render(payload, send, t),
    seat !== null && table.status === "playing" ? h("details", { class: "moves-panel", open: renderer === generic },
      h("summary", {}, `${t("moves")} (${legal.length})`), buttons, moveForm) : null,
    mine.host ? hostPanel(tableId, table, mine) : null,
    log,
  ].filter(Boolean));
  const list = area.querySelector(".log ol");
  if (list && list.lastElementChild) list.lastElementChild.scrollIntoView({ block: "nearest" });
}

function hostPanel(tableId, table, mine) {
  const rows = table.seats.map((s) => {
    const invite = (mine.invites || []).find((i) => i.seat === s.seat);
    const link = invite ? `${location.origin}/table/${tableId}?seat=${s.seat}&invite=${invite.invite}` : null;
    return h("li", {}, `${seatLabel(s.seat)}: `, s.kind === "bot" ? `${s.bot} (bot)` : s.name || "—",
      link && !s.joined ? [" ", h("input", { class: "invite", readonly: true, value: link, "data-seat": s.seat, onclick: (e) => e.target.select() }),
        h("button", { onclick: () => navigator.clipboard?.writeText(link).then(() => toast(t("copied"), "info")) }, t("copy"))] : null,
      s.kind === "human" && s.seat !== mine.seat && table.status !== "finished" ? h("button", {
        onclick: async () => {
          try { await api(`/api/tables/${tableId}/seats/${s.seat}/bot`, { method: "POST", body: JSON.stringify({ host_token: mine.host, bot: "greedy" }) }); }
          catch (error) { toast(error.message); }
        },
      }, t("handToBot")) : null);
  });
  return h("details", { class: "host", open: table.status === "waiting" }, h("summary", {}, t("invites")), h("ul", {}, rows));
}

// --- replays -----------------------------------------------------------------------------------------
async function replayPage(tableId) {
  let at = 0;
  const area = h("div", { id: "replay" });
  main.replaceChildren(area);
  async function show(to) {
    try {
      const step = await api(`/api/tables/${tableId}/replay?upto=${to}`);
      at = step.at;
      const renderer = RENDERERS[step.game] || generic;
      const info = await api(`/api/tables/${tableId}`);
      const payload = { table: info.table, seat: null, view: step.view, legal: [] };
      area.replaceChildren(
        h("div", { class: "replay-bar" },
          h("button", { onclick: () => show(0) }, t("first")),
          h("button", { id: "replay-prev", onclick: () => show(at - 1) }, t("prev")),
          h("span", { id: "replay-at" }, `${t("move")} ${at} / ${step.moves}`),
          h("button", { id: "replay-next", onclick: () => show(at + 1) }, t("next")),
          h("button", { onclick: () => show(step.moves) }, t("last")),
          step.move ? h("span", { class: "muted" }, ` ${seatLabel(step.move.seat)}: ${step.move.text}`) : null),
        renderer.render(payload, () => {}, t),
        h("div", { class: "log" }, h("ol", {}, (step.view.log || []).map((line) => h("li", {}, line)))),
      );
    } catch (error) { toast(error.message); }
  }
  document.onkeydown = (e) => {
    if (location.pathname !== `/replay/${tableId}`) return;
    if (e.key === "ArrowRight") show(at + 1);
    if (e.key === "ArrowLeft") show(at - 1);
  };
  show(0);
}

// --- routing -----------------------------------------------------------------------------------------
function route() {
  header();
  document.documentElement.lang = language();
  const path = location.pathname;
  let match;
  if ((match = path.match(/^\/table\/([\w-]+)$/))) return tablePage(match[1]);
  if ((match = path.match(/^\/replay\/([\w-]+)$/))) return replayPage(match[1]);
  if (socket) { socket.close(); socket = null; }
  return lobby();
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a");
  if (link && link.origin === location.origin && !link.target && !link.pathname.startsWith("/rules")) {
    event.preventDefault();
    history.pushState({}, "", link.pathname + link.search);
    route();
  }
});
window.addEventListener("popstate", route);
route();

// Turn-based play (server/turns.py): while the site is open, a logged-in player's "your turn" count is in
// the page's title ("(2) ..."), a browser notification says when a new turn comes (if allowed), and the
// account page lists the tables where it is your turn.
import { h } from "./dom.js";
import { gameTitle, t } from "./i18n.js";

const POLL_MS = 30000;
let count = 0;
let known = new Set();
let timer = null;

function withCount(title) {
  const bare = title.replace(/^\(\d+\) /, "");
  return count ? `(${count}) ${bare}` : bare;
}

// the table page rewrites the title after every move: the count is put back in front each time
const titleWatch = new MutationObserver(() => {
  const wanted = withCount(document.title);
  if (document.title !== wanted) document.title = wanted;
});

export async function fetchTurns() {
  const response = await fetch("/api/account/turns");
  if (!response.ok) return null;
  return response.json();
}

async function poll() {
  const answer = await fetchTurns().catch(() => null);
  if (!answer) { count = 0; document.title = withCount(document.title); return; }
  const now = new Set(answer.turns.map((turn) => turn.table_id));
  const fresh = answer.turns.filter((turn) => !known.has(turn.table_id));
  if (known.size && fresh.length && "Notification" in window && Notification.permission === "granted" && document.hidden) {
    new Notification(t("yourTurnAt", { title: gameTitle(fresh[0].game, fresh[0].title) }), { tag: `merchantry-${fresh[0].table_id}` });
  }
  known = now;
  count = answer.count;
  document.title = withCount(document.title);
}

// called once a page knows it is logged in; polls until the page is left
export function watchTurns() {
  const title = document.querySelector("title");
  if (title) titleWatch.observe(title, { childList: true });
  if (timer) return;
  poll();
  timer = setInterval(poll, POLL_MS);
}

export function turnsSection(turns) {
  const ask = "Notification" in window && Notification.permission === "default"
    ? h("button", { type: "button", id: "notify-me", onclick: () => Notification.requestPermission() }, t("notifyMe")) : null;
  const left = (s) => (s === null ? "" : s >= 86400 ? `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h` : s >= 3600 ? `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min` : `${Math.ceil(s / 60)} min`);
  return h("section", { id: "your-turns" },
    h("h2", {}, t("yourTurns")),
    turns.length ? h("ul", {}, turns.map((turn) => h("li", {},
      h("a", { href: `/table/${turn.table_id}` }, `${gameTitle(turn.game, turn.title)} · P${turn.seat + 1}`), turn.seconds_left === null ? "" : ` (${left(turn.seconds_left)})`)))
      : h("p", {}, t("noTurns")),
    ask);
}

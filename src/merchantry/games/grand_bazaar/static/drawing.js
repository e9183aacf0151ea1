// Grand Bazaar in the browser, drawn as a board: a price track per gem (1..19) with its marker, buy and sell
// controls that say why they are closed, the 27 price cards (those still to come and those revealed), every
// player's gems, grands and worth, a prompt for each moment, and the final table.
import { h, seatName } from "/static/dom.js";
import { decimal } from "/static/i18n.js";

const TRACK = 19; // prices stay within 1..19 (GB-C3)
const LIMIT = 4; // gems a player may hold (GB-R4)
// each gem's letter, from the catalogue (colour is never the only sign: colour-blind safe): the initial of its
// name in the reader's language, two letters where initials clash (German Saphir and Smaragd: Sa, Sm)
const letter = (gem, t) => t(`letter_${gem}`);
const CASH_OUT = 10; // grands a gem still held brings at the end (GB-E1)

// what a seat would have if the game ended now: its grands and 10 for each gem (GB-E1's cash-out), the
// engine's figure, the same the terminal shows; once over, the gems were cashed out into the grands
function worth(view, row) {
  return row.worth;
}

// the grands a seat held before its gems were cashed out: the players' table says what the final table
// says (its Grands read 49 under a final table's 9, the 40 of the gems counted in)
function grandsShown(view, row) {
  return view.over ? row.cash - CASH_OUT * row.gems.reduce((a, b) => a + b, 0) : row.cash;
}

// Why a buy or a sale is closed to the player now, in words; null when it is open.
function closedBecause(view, seat, verb, g, can, t, tr) {
  const gem = view.gems[g];
  if (can.has(`${verb} ${gem}`)) return null;
  if (seat === null || view.current !== seat || view.over) return t("notYourTurn");
  const mine = view.holdings[seat];
  const turn = view.turn;
  if (verb === "buy") {
    if (turn.sold.includes(gem)) return t("soldThisRound", { gem: tr.term(gem) });
    if (mine.gems.reduce((a, b) => a + b, 0) >= LIMIT) return t("gemLimit", { limit: LIMIT });
    if (view.stock[g] === 0) return t("noStock", { gem: tr.term(gem) });
    return t("needCash", { count: view.prices[g] - mine.cash, price: view.prices[g] });
  }
  if (turn.bought.includes(gem)) return t("boughtThisRound", { gem: tr.term(gem) });
  if (mine.gems[g] === 0) return t("noGem", { gem: tr.term(gem) });
  return t("buyFirst");
}

function prompt(view, seat, table, can, t) {
  if (view.over) return t("finalPrompt");
  // a seat with no move is waiting, its own turn too: a replay from its point of view said "your turn"
  if (seat === null || view.current !== seat || !can.size) return t("waitingTrade", { seat: seatName(table, view.current) });
  if (!view.turn.bought.length && !can.has("done")) return t("mustBuy");
  if (!view.turn.bought.length) return t("cannotBuy");
  return t("mayContinue");
}

// The buy and sell controls belong to a seat at a table being played: a replay, a table still awaiting its
// players and a closed one offer no trade, and their closed buttons once read "need -21 more grands"
function trading(payload) {
  const { view, seat, table } = payload;
  return seat !== null && !view.over && (!table || !table.status || table.status === "playing");
}

function priceRow(payload, g, can, act, t, tr) {
  const { view, seat } = payload;
  const gem = view.gems[g];
  const history = view.price_history;
  const before = history.length > 1 ? history[history.length - 2][g] : view.prices[g];
  const change = view.prices[g] - before;
  const cells = Array.from({ length: TRACK }, (_, i) => {
    const price = i + 1;
    const here = price === view.prices[g];
    return h("span", { class: `gb-cell${here ? " gb-marker" : ""}${price === 10 ? " gb-ten" : ""}`, "aria-hidden": here ? null : "true" },
      here ? `${letter(gem, t)}${price}` : "");
  });
  const control = (verb) => {
    const why = closedBecause(view, seat, verb, g, can, t, tr);
    const label = `${t(verb)} ${view.prices[g]}`;
    // on the player's turn a closed trade says why on the button itself ("need 3 more grands"); on others'
    // turns every trade is closed for the same reason, said once in the title
    const said = why && seat !== null && view.current === seat;
    return h("span", { class: "gb-control" },
      // its name is what it shows (the gem, said to screen readers only, and the reason where it is shown)
      h("button", { class: why ? "gb-closed" : "primary", disabled: why ? true : null, title: why || "", "data-move": `${verb} ${gem}`,
        "aria-label": said ? null : `${label} — ${tr.term(gem)}${why ? ` — ${why}` : ""}`,
        onclick: () => act(`${verb} ${gem}`) },
      h("span", { class: "gb-label" }, label, said ? h("span", { class: "gb-unseen" }, ` — ${tr.term(gem)} —`) : null),
      said ? h("small", { class: "gb-why" }, why) : null));
  };
  // how the last price card moved it, said in words ("last card: unchanged", not a bare "(= 0)"); nothing
  // before the first card is revealed
  const mark = history.length < 2 ? null
    : t("lastCard", { change: change > 0 ? `▲ +${change}` : change < 0 ? `▼ −${-change}` : t("unchanged") });
  return h("div", { class: `gb-gem gem-${gem}` },
    h("div", { class: "gb-gem-head" },
      h("strong", {}, `${letter(gem, t)} · ${tr.term(gem)}`),
      h("span", { title: t("priceNow"), class: "gb-price" }, ` ${t("price")} ${view.prices[g]}${mark ? ` (${mark})` : ""}`),
      h("span", { class: "muted", title: t("stockHelp") }, ` · ${t("stock")}${t("colon")}${view.stock[g]}`),
      // with no card left to come there is no change to expect (it once read "expected change: 0")
      view.remaining_cards.length ? h("span", { class: "muted", title: t("expectedHelp") }, ` · ${t("expected")}${t("colon")}${expected(view, g)}`) : null),
    h("div", { class: "gb-track", role: "img", "aria-label": `${tr.term(gem)} ${view.prices[g]} / ${TRACK}` }, cells),
    trading(payload) ? h("div", { class: "gb-controls" }, control("buy"), control("sell")) : null);
}

function expected(view, g) {
  const left = view.remaining_cards;
  const mean = left.reduce((sum, card) => sum + card[g], 0) / left.length;
  return decimal(mean, 2, true);
}

function cardText(card) {
  return card.map((d) => (d > 0 ? "+" : d < 0 ? "−" : "0")).join("");
}

// The 27 price cards: every combination of −/0/+ for (S, R, E) exactly once; revealed ones marked with their round.
function deck(view, t) {
  const revealedAt = new Map(view.revealed.map((card, i) => [card.join(","), i + 1]));
  const all = [];
  for (const s of [-1, 0, 1]) for (const r of [-1, 0, 1]) for (const e of [-1, 0, 1]) all.push([s, r, e]);
  return h("details", { class: "gb-deck", open: true },
    h("summary", {}, t("deckSummary", { left: view.remaining_cards.length, total: all.length })),
    h("p", { class: "muted" }, t("deckHelp")),
    h("div", { class: "gb-cards" }, all.map((card) => {
      const round = revealedAt.get(card.join(","));
      return h("span", { class: `gb-card${round ? " gb-revealed" : ""}`, title: round ? t("revealedIn", { round }) : t("toCome") },
        h("span", { class: "gb-card-moves" }, cardText(card)), round ? h("small", {}, `r${round}`) : null);
    })));
}

function players(view, seat, table, t, tr) {
  return h("div", { class: "gb-scroll" }, h("table", { class: "scores" },
    h("caption", {}, t("players"), view.over ? h("small", { class: "muted" }, ` · ${t("cashedOut")}`) : null),
    // each figure's heading over its figure, right-aligned as they are ("S R" stood side by side on a phone)
    h("thead", {}, h("tr", {}, h("th", {}, t("seat")), view.gems.map((g) => h("th", { class: "num", title: tr.term(g) }, letter(g, t), h("span", { class: "gb-gem-word" }, ` ${tr.term(g)}`))),
      h("th", { class: "num", title: t("cashHelp") }, t("cash")), h("th", { class: "num", title: t("worthHelp", { value: CASH_OUT }) }, t("worth")))),
    h("tbody", {}, view.holdings.map((row) => h("tr", { class: `${row.seat === view.current ? "current-row" : ""}${row.seat === seat ? " me" : ""}` },
      h("td", {}, seatName(table, row.seat), row.seat === seat ? ` (${t("you")})` : "", row.seat === view.opener && !view.over ? h("small", { class: "muted", title: t("openerHelp") }, ` · ${t("opener")}`) : null),
      row.gems.map((n) => h("td", { class: "num", title: view.over ? t("cashedOut") : null }, view.over && n ? `${n} → ${n * CASH_OUT}` : String(n))),
      h("td", { class: "num" }, String(grandsShown(view, row))),
      h("td", { class: "num" }, String(worth(view, row))))))));
}

function finalTable(view, table, t) {
  const order = [...view.holdings].sort((a, b) => view.ranks[a.seat] - view.ranks[b.seat]);
  return h("table", { class: "scores gb-final" },
    h("caption", {}, t("finalTitle")),
    h("thead", {}, h("tr", {}, h("th", {}, t("rank")), h("th", {}, t("seat")), h("th", {}, t("cashBefore")),
      h("th", {}, t("gemsTimesTen")), h("th", {}, t("total")))),
    h("tbody", {}, order.map((row) => {
      const gems = row.gems.reduce((a, b) => a + b, 0);
      return h("tr", {}, h("td", { class: "num" }, String(view.ranks[row.seat])), h("td", {}, seatName(table, row.seat)),
        h("td", { class: "num" }, String(grandsShown(view, row))), h("td", { class: "num" }, `${gems} × 10 = ${10 * gems}`),
        h("td", { class: "num" }, String(row.cash)));
    })));
}

export function render(payload, act, t, tr = { term: (w) => w, join: (items) => items.join(", ") }) {
  const { view, legal, seat, table } = payload;
  const can = new Set(legal);
  const mine = seat !== null && view.current === seat && !view.over;
  const turnLine = mine && (view.turn.bought.length || view.turn.sold.length)
    ? t("thisTurn", { bought: tr.join(view.turn.bought.map(tr.term)) || "—", sold: tr.join(view.turn.sold.map(tr.term)) || "—" })
    : null;
  return h("section", { class: "grand-bazaar" },
    h("div", { class: "banner gb-prompt", role: "status" }, prompt(view, seat, table, can, t)),
    h("div", { class: "status-line" }, `${t("round")} ${view.round} / ${view.rounds}`, turnLine ? ` · ${turnLine}` : ""),
    mine && can.has("done") ? h("button", { class: "primary", "data-move": "done", onclick: () => act("done") }, t("done")) : null,
    view.over ? finalTable(view, table, t) : null,
    h("div", { class: "gb-board" }, view.gems.map((_, g) => priceRow(payload, g, can, act, t, tr))),
    players(view, seat, table, t, tr),
    deck(view, t));
}

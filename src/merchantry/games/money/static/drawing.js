// Money in the browser: market groups, seats with sealed/waiting bids, your hand as cards, the exchange.
import { h, seatLabel, seatName } from "/static/dom.js";

const CURRENCY_ORDER = ["AUD", "BRL", "CAD", "EUR", "GBP", "JPY", "USD", "COI", "BLU"];

// A card's face value: a note's printed value, a coin 10, the bluff card 0
function cardValue(code) {
  return code === "COIN" ? 10 : code === "BLUFF" ? 0 : Number(code.slice(3));
}

// What a card is, in words, for its tooltip
function cardTitle(code, t) {
  if (!t) return code;
  if (code === "COIN") return t("coinTitle");
  if (code === "BLUFF") return t("bluffTitle");
  return t("cardTitle", { currency: code.slice(0, 3), value: cardValue(code) });
}

// A card; `serial` (MO-R5: the lowest serial in a bid breaks a tie) is printed on the card when known
export function cardNode(code, attrs = {}, t = null, serial = null) {
  const kind = code.slice(0, 3);
  const value = String(cardValue(code));
  // a note shows its currency's code, as the log, the totals and the end table name it; the coin and the
  // bluff card their names in the page's language (a German page showed "COIN")
  const label = code === "COIN" ? (t ? t("coinLabel") : "COIN") : code === "BLUFF" ? (t ? t("bluffLabel") : "BLUFF") : kind;
  const number = serial ? ` №${serial}` : "";  // as printed: an accessible name holds the visible text
  // an accessible name starts with what the card shows, then says what clicking does
  const named = attrs["aria-label"] ? { ...attrs, "aria-label": `${value} ${label}${number} — ${attrs["aria-label"]}` } : attrs;
  const title = `${cardTitle(code, t)}${serial && t ? ` · ${t("serial")} ${serial}` : ""}`;
  return h(attrs.onclick ? "button" : "span", { class: `card c-${kind}`, title, "data-card": code, ...named },
    h("span", { class: "card-value" }, value), " ", h("span", { class: "card-kind" }, label),
    serial ? [" ", h("span", { class: "card-serial" }, `№${serial}`)] : null);
}

function cards(codes, t, empty = "—") {
  return codes && codes.length ? h("span", { class: "cards" }, codes.map((c) => cardNode(c, {}, t))) : h("span", { class: "muted" }, empty);
}

function byCurrency(a, b) {
  return CURRENCY_ORDER.indexOf(a.slice(0, 3)) - CURRENCY_ORDER.indexOf(b.slice(0, 3)) || Number(a.slice(3) || 0) - Number(b.slice(3) || 0);
}

function sortHand(codes) {
  return [...codes].sort(byCurrency);
}

// cards with their serial numbers (the bluff card has none), sorted for display
function withSerials(codes, serials) {
  return codes.map((code, i) => [code, (serials || [])[i] || null]).sort(([a, x], [b, y]) => byCurrency(a, b) || (x || 0) - (y || 0));
}

// every seat's cards once the game is over (its last game's, in a match): scores can be checked
function finalHand(view, seat) {
  const last = view.results[view.results.length - 1];
  return last ? last.hands[seat].hand : null;
}

// MO-R2: a bid holding cards but no valued one (only the bluff card) sits the round out when sealed
function bluffOnly(bid) {
  return Boolean(bid && bid.length) && bid.every((code) => code === "BLUFF");
}

// What each currency in your cards adds up to, against the 200 below which it loses 100 (MO-E2)
function currencyTotals(codes, t) {
  const totals = {};
  for (const code of codes) {
    if (code === "COIN" || code === "BLUFF") continue;
    totals[code.slice(0, 3)] = (totals[code.slice(0, 3)] || 0) + cardValue(code);
  }
  const entries = Object.entries(totals).sort();
  if (!entries.length) return null;
  // the chips with the language's list separator between them as text, which a screen reader and a copy keep
  // (they read "BRL 30 / 200CAD 50 / 200")
  const chips = entries.map(([currency, total]) => h("span", { class: `money-total c-${currency}${total >= 200 ? " safe" : ""}` },
    `${currency} ${total}${total >= 200 ? " ✓" : " / 200"}`));
  return h("div", { class: "money-totals", title: t("totalsHelp") }, `${t("totals")}${t("colon")}`,
    chips.flatMap((chip, i) => (i ? [t("listSeparator"), chip] : [chip])));
}

// The serial that decided each tied bid (MO-R5), as it was at the reveal: a seat's bid_serial is that of the
// bid before it now, gone once it has exchanged and another's once its bid was taken, so the order line kept
// only the serials of the seats still to exchange (one, once the first of two tied seats had gone, and the
// wrong one after a take). Each seat's is kept, per reveal, from the first view where its bid is its own.
const servedSerials = new Map();

function decidingSerials(view, log, reveal, bySeat) {
  const key = JSON.stringify([view.round, reveal, log.slice(reveal, reveal + view.seats.length + 2)]);
  if (!servedSerials.has(key)) servedSerials.set(key, {});
  const kept = servedSerials.get(key);
  const swapped = new Set(log.slice(reveal + 1).filter((e) => e.type === "took_bid").flatMap((e) => [e.seat, e.target_seat]));
  for (const s of view.order) {
    const info = bySeat[s];
    if (kept[s] === undefined && info && !info.acted && info.bid_serial && !swapped.has(s)) kept[s] = info.bid_serial;
  }
  return kept;
}

// MO-R4/MO-R5: who exchanges in which order, by the bids as they were revealed (from the log: bids taken
// since then show elsewhere), and why equal bids went as they did: every tied seat's deciding serial, to
// the end of the exchange
function exchangeOrder(view, t) {
  const log = view.log || [];
  const reveal = log.map((e) => e.type).lastIndexOf("bids_revealed");
  const revealed = Object.fromEntries(log.slice(reveal + 1).filter((e) => e.type === "bid").map((e) => [e.seat, e.value]));
  const bySeat = Object.fromEntries(view.seats.map((info) => [info.seat, info]));
  const tied = (s) => view.order.some((o) => o !== s && revealed[o] !== undefined && revealed[o] === revealed[s]);
  const serials = decidingSerials(view, log, reveal, bySeat);
  const steps = view.order.map((s, i) => {
    const serial = tied(s) && serials[s] ? `, ${t("serial")} ${serials[s]}` : "";
    return h("span", { class: `order-step${view.current === s ? " now" : ""}` }, `${i + 1}. ${seatLabel(s)} (${revealed[s] ?? "—"}${serial})`);
  });
  const anyTie = view.order.some(tied);
  return h("div", { class: "exchange-order" }, h("strong", {}, `${t("order")}${t("colon")}`), steps.flatMap((step, i) => (i ? [" → ", step] : [step])),
    anyTie ? h("div", { class: "muted" }, t("tieRule")) : null);
}

// What to do now, or whom we wait for (MO-R1 sealed bids, MO-R6 the exchange)
function prompt(view, seat, table, can, t, tr) {
  if (view.phase === "over") return t("promptOver");
  if (view.phase === "bidding") {
    if (can.has("bid")) return t("promptBid");
    // every seat still to seal, one's own too when it may not seal here (a replay from its point of view,
    // at move 0: "waiting for P2, P3" while P1 had not sealed either)
    const waiting = view.to_act.map((s) => seatName(table, s));
    return waiting.length ? t("waitingFor", { who: tr.join(waiting) }) : "";
  }
  if (view.current === seat && seat !== null) return can.has("keep") ? t("promptExchangeKeep") : t("promptExchange");
  return view.current !== null && view.current !== undefined ? t("waitExchange", { seat: seatName(table, view.current) }) : "";
}

// `tr`: the game's translator (i18n.js, gameTranslator): lists as the language lists them, as the log does
export function render(payload, act, t, tr = { join: (items) => items.join(", ") }) {
  const { view, legal, seat, table } = payload;
  const can = new Set(legal);
  const root = h("section", { class: `money phase-${view.phase}` });  // drawing.css: the hand's place on a phone
  const said = prompt(view, seat, table, can, t, tr);
  if (said) root.append(h("div", { class: "banner money-prompt", role: "status" }, said));
  root.append(h("div", { class: "status-line" },
    `${t("round")} ${view.round}`, " · ", h("span", { title: t("deckHelp") }, `${t("deck")}${t("colon")}${view.deck}`),
    view.final_round ? h("strong", { class: "warn" }, ` · ${t("finalRound")}`) : "",
    view.removed_currencies.length ? ` · ${t("removed")}${t("colon")}${tr.join(view.removed_currencies)}` : "",
  ));

  if (view.phase === "over") root.append(finalScores(view, table, t));  // the end first, as in every game

  // market groups (MO-S3): the left group drawn on the left, the right group on the right, as they are named
  const market = h("div", { class: "market" });
  for (const [side, key, move] of [["left", "left", "take left"], ["right", "right", "take right"]]) {
    market.append(h("div", { class: "group" },
      h("div", { class: "group-title" }, t(key)),
      cards(view.market[side], t),
      can.has(move) ? h("button", { class: "primary", "data-move": move, onclick: () => act(move) }, key === "right" ? t("takeRight") : t("takeLeft")) : null,
    ));
  }
  if (view.phase !== "over") root.append(market);  // left-over groups mean nothing once the game is scored

  // seats
  const seats = h("div", { class: "seats" });
  for (const info of view.seats) {
    const s = info.seat;
    let bid;
    if (view.phase === "bidding") bid = h("span", { class: info.sealed ? "ok" : "muted" }, info.sealed ? t("sealed") : t("thinking"));
    else if (view.phase === "exchange") bid = info.bid ? h("span", {}, cards(info.bid, t), ` = ${info.bid_value}`, info.acted ? ` (${t("acted")})` : "") : h("span", { class: "muted" }, "—");
    else bid = "";
    const take = `take ${seatLabel(s)}`;
    const current = view.current === s || (view.phase === "bidding" && view.to_act.includes(s));
    seats.append(h("div", { class: `seat${s === seat ? " me" : ""}${current ? " current" : ""}`, "data-seat": s },
      h("div", { class: "seat-name" }, seatName(table, s), s === seat ? ` (${t("you")})` : ""),
      h("div", { class: "muted", title: t("cardsHelp") }, `${info.hand_size} ${t("cards")}`),
      // at the end every hand is shown, once, each in its seat's box, one's own too (under "Your hand" below,
      // one's box stood almost empty beside the others' cards: the hand panel is not drawn once it is over)
      view.phase === "over" && finalHand(view, s) ? h("div", { class: "final-hand" }, `${t("handAtEnd")}${t("colon")}`, cards(sortHand(finalHand(view, s)), t))
        : info.known.length ? h("div", { class: "known", title: t("knownHelp") }, `${t("knownCards")}${t("colon")}`, cards(info.known, t)) : null,
      view.phase === "over" ? null : h("div", { class: "bid" }, `${t("bidLabel")}${t("colon")}`, bid),
      can.has(take) ? h("button", { class: "primary", onclick: () => act(take) }, t("takeBid", { seat: seatLabel(s) })) : null,
    ));
  }
  root.append(seats);
  if (view.phase === "exchange" && view.order.length) root.append(exchangeOrder(view, t));

  // your hand and bid (at the end, one's hand is in one's seat's box, as everyone's)
  if (seat !== null && view.hand && view.phase !== "over") {
    const mine = h("div", { class: "mine" });
    const handCards = withSerials(view.hand, view.hand_serials).map(([code, serial]) => {
      const move = `add ${code}`;
      return can.has(move) ? cardNode(code, { onclick: () => act(move), "aria-label": move, "data-move": move }, t, serial) : cardNode(code, {}, t, serial);
    });
    // focus stays in the hand when the card clicked leaves it (data-focus-group: app.js moves it to a neighbour)
    mine.append(h("div", { class: "group-title" }, t("hand")), h("div", { class: "cards hand", "data-focus-group": "hand" }, handCards));
    // what the hand shown above holds: cards moved into the bid are not counted (they may be exchanged away)
    const totals = currencyTotals(view.hand, t);
    if (totals) mine.append(totals);  // append() would write a null as the text "null"
    if (view.phase === "bidding") {
      const total = (view.my_bid || []).reduce((sum, c) => sum + cardValue(c), 0);
      const bidCards = withSerials(view.my_bid || [], view.my_bid_serials).map(([code, serial]) => {
        const move = `remove ${code}`;  // MO-R1: until sealed, a card can go back to the hand
        return can.has(move) ? cardNode(code, { onclick: () => act(move), "aria-label": move, title: t("takeBack"), "data-move": move }, t, serial) : cardNode(code, {}, t, serial);
      });
      mine.append(h("div", { class: "group-title" }, `${t("yourBid")} (${t("bidValue")} ${total})`),
        h("div", { class: "cards my-bid", "data-focus-group": "bid" }, bidCards.length ? bidCards : h("span", { class: "muted" }, "—")));
      if (bidCards.length && can.has("bid")) mine.append(h("small", { class: "muted" }, t("takeBackHelp")));
      if (can.has("bid")) mine.append(h("button", { class: "primary", "data-move": "bid", onclick: () => act("bid") }, total ? t("seal") : t("sitOut")));
      // MO-R2: a bid of only the bluff card is a pass; the button says "sit out", this line says why
      if (can.has("bid") && bluffOnly(view.my_bid)) mine.append(h("small", { class: "muted bluff-only" }, t("bluffOnly")));
    }
    if (can.has("keep")) mine.append(h("button", { onclick: () => act("keep") }, t("keep")));
    root.append(mine);
  }

  return root;
}

// MO-E3/MO-E4 step by step: "AUD 140 − 100 (under 200) + 100 (trio) = 140", the rulebook's numbers or a variant's
export function currencyScore(view, currency, c, t) {
  const penalty = (view.variants || {}).penalty ?? 100;
  const bonus = (view.variants || {}).trio_bonus ?? 100;
  const lost = c.total < 200 ? Math.min(c.total, penalty) : 0;
  // the rules' "loses 100, never below 0": "BRL 90 − 100 (under 200) → 0", not "BRL 90 − 90", which read as if
  // the penalty were the currency's own total; one form for every currency the penalty takes to 0, "GBP 100
  // − 100 (under 200) → 0" too (it read "= 0" beside "EUR 90 − 100 (under 200) → 0")
  const floored = lost && lost === c.total ? " → 0" : "";
  const steps = [lost ? ` − ${penalty} (${t("under200")})${floored}` : "", c.trios ? ` + ${c.trios * bonus} (${t("trios", { count: c.trios })})` : ""].join("");
  if (c.total - lost + c.trios * bonus !== c.score) return `${currency} ${c.total} → ${c.score}`;  // a rule this page does not know
  if (floored && !c.trios) return `${currency} ${c.total}${steps}`;  // "→ 0" is its score
  return steps ? `${currency} ${c.total}${steps} = ${c.score}` : `${currency} ${c.total}`;
}

function finalScores(view, table, t) {
  const wrap = h("div", { class: "final" });
  view.results.forEach((result, index) => {
    // best first, each with its place (equal totals share one), as every game's end table
    const rankOf = (s) => 1 + result.hands.filter((other) => other.total > result.hands[s].total).length;
    const order = result.hands.map((_, s) => s).sort((a, b) => rankOf(a) - rankOf(b) || a - b);
    const rows = order.map((s) => [s, result.hands[s]]).map(([s, hand]) => h("tr", { "data-seat": s },
      h("td", { class: "num" }, String(rankOf(s))),
      h("td", {}, seatName(table, s)),
      h("td", { class: "working" }, Object.entries(hand.currencies).map(([cur, c]) => h("div", {}, currencyScore(view, cur, c, t)))),  // a line each
      h("td", {}, String(hand.coins)),
      h("td", { class: "num" }, String(hand.total)),
    ));
    wrap.append(h("table", { class: "scores money-scores" },
      h("caption", {}, view.match.of > 1 ? `${t("game")} ${index + 1}` : t("scores")),
      h("thead", {}, h("tr", {}, h("th", {}, t("rank")), h("th", {}, t("seat")), h("th", { class: "working" }, t("scoreColumn")), h("th", {}, t("coins")), h("th", {}, t("total")))),
      h("tbody", {}, rows)));
  });
  return wrap;
}

// Byzanz in the browser: a prompt for every decision, the lot, each seat's bid as a labelled row with its total,
// offer cards and profits apart from bids, the market with its pick order, your hand grouped by good with the
// sets you can sell, discards in a panel of their own (never mistaken for bidding), and the final table.
import { h, seatName } from "/static/dom.js";

let term = (word) => word; // card names in the reader's language, set by render

// A bid being built is held on the page until Bid is pressed (the engine's `add` is for good: BZ-A4 has no
// taking back), so any card of it can go back to the hand; Bid then sends its cards and the bid at once.
// It belongs to one turn in one auction: a new turn (or another table) starts it afresh.
const building = { turn: null, cards: [] };

function turnKey(view, table) {
  const auction = view.auction;
  return auction ? `${table.id}:${view.round}:${view.offer_stack.length}:${auction.turn}:${auction.high}` : null;
}

// the cards being bid that the hand still holds (a set sold meanwhile takes its cards out of the bid)
function heldBack(hand) {
  const left = [...hand];
  return building.cards.filter((code) => {
    const at = left.indexOf(code);
    if (at < 0) return false;
    left.splice(at, 1);
    return true;
  });
}

function withoutCards(hand, cards) {
  const left = [...hand];
  for (const code of cards) left.splice(left.indexOf(code), 1);
  return left;
}
const MARKET_EVENTS = ["won_lot", "lot_card_to_market", "all_passed", "last_auction", "market_pick", "leftovers_removed", "round"];
const TYPE_ORDER = ["cloth", "spice", "wine", "wood", "grain", "olive", "merchant"];

function kindOf(code) {
  return code.replace(/\d+$/, "");
}

function valueOf(code) {
  return code === "merchant" ? 0 : Number(code.slice(kindOf(code).length));
}

// `worth`: what a merchant kept as profit scores (BZ-E2), printed beside its star so the points add up
function goodsCard(code, attrs = {}, worth = null) {
  const kind = kindOf(code);
  const value = code === "merchant" ? `★${worth === null ? "" : ` ${worth}`}` : String(valueOf(code));
  // an accessible name starts with what the card shows, then says what clicking does
  const named = attrs["aria-label"] ? { ...attrs, "aria-label": `${value} ${term(kind)} — ${attrs["aria-label"]}` } : attrs;
  return h(attrs.onclick ? "button" : "span", { class: `card g-${kind}`, title: `${term(kind)} ${value}`, "data-card": code, ...named },
    h("span", { class: "card-value" }, value), " ", h("span", { class: "card-kind" }, term(kind)));
}

function row(codes, moveFor, can, act, group = null) {
  return h("span", { class: "cards", "data-focus-group": group }, codes.length ? codes.map((code) => {
    const move = moveFor ? moveFor(code) : null;
    return move && can.has(move) ? goodsCard(code, { onclick: () => act(move), "aria-label": move, "data-move": move }) : goodsCard(code);
  }) : h("span", { class: "muted" }, "—"));
}

function total(codes) {
  return codes.reduce((sum, code) => sum + valueOf(code), 0);
}

// BZ-V1/V2: a set keeps its highest good as profit; three merchants keep a merchant (worth 5, BZ-E2)
function setPoints(codes, merchantWorth) {
  const goods = codes.filter((c) => c !== "merchant");
  return goods.length ? Math.max(...goods.map(valueOf)) : merchantWorth;
}

// profit cards with what each scores: a merchant's star carries its points, and a line says so
function profitRow(view, codes, t) {
  if (!codes.length) return "—";
  const worth = view.merchant_profit;
  return [h("span", { class: "cards" }, codes.map((code) => goodsCard(code, code === "merchant" ? { title: t("merchantWorth", { count: worth }) } : {}, code === "merchant" ? worth : null))),
    codes.includes("merchant") ? h("small", { class: "muted bz-merchant-worth" }, ` ${t("merchantWorth", { count: worth })}`) : null];
}

function prompt(view, seat, table, can, t) {
  if (seat !== null && view.to_act.includes(seat) && !can.size) return "";  // nobody acts yet (a seat is still empty)
  const who = (s) => seatName(table, s);
  const auction = view.auction;
  if (view.phase === "over") return t("promptOver");
  if (seat !== null && view.hand_limit_player === seat) return t("promptLimit");
  const mine = seat !== null && view.to_act.includes(seat);
  if (view.phase === "auction" && auction) {
    const offer = view.offer_stack[view.offer_stack.length - 1];
    if (!mine) return t("waitAuction", { seat: who(auction.turn ?? view.to_act[0]), offer });
    return auction.high ? t("promptRaise", { offer, high: auction.high }) : t("promptOpen", { offer });
  }
  if (view.phase === "lot_choice") return mine ? t("promptLot") : t("waitLot", { seat: who(view.chooser) });
  if (view.phase === "market") return mine ? t("promptMarket") : t("waitMarket", { seat: who(view.to_act[0]) });
  if (view.phase === "final_selling") return mine ? t("promptFinal") : t("waitFinal", { seat: who(view.to_act[0]) });
  return "";
}

// The offer card a seat holds, or has won: the winner of a lot takes the top offer card once a lot card is in
// the market (BZ-A7), but it is theirs from the moment the lot is won, and shown so at once (it showed only
// after the lot card, a step late)
function offerOf(view, s) {
  const info = view.seats[s];
  if (info.offer) return info.offer;
  const won = view.phase === "lot_choice" && view.chooser === s && view.offer_stack.length;
  return won ? view.offer_stack[view.offer_stack.length - 1] : null;
}

function seatBox(view, info, seat, table, t) {
  const s = info.seat;
  const auction = view.auction;
  const out = auction && !info.offer && !auction.in.includes(s);
  const offer = offerOf(view, s);
  return h("div", { class: `seat${s === seat ? " me" : ""}${view.to_act.includes(s) ? " current" : ""}` },
    h("div", { class: "seat-name" }, seatName(table, s), s === seat ? ` (${t("you")})` : ""),
    h("div", { class: "muted" }, t("handSize", { count: info.hand_size }), info.discarded ? ` · ${t("discardedCount", { count: info.discarded })}` : ""),
    offer ? h("div", { class: "bz-offer", title: t("offerHelp") }, `${t("offerCard")}${t("colon")}${offer}`) : null,
    view.phase === "over" ? null : h("div", { class: "bz-bid" }, `${t("bid")}${t("colon")}`, out ? h("span", { class: "muted" }, t("passed"))
      // the total and "(highest)" kept together: a long bid wrapped "=" away from its figure
      : info.bid.length ? [row(info.bid), " ", h("span", { class: "bz-bid-total" }, `= ${total(info.bid)}`, auction && auction.high_bidder === s ? ` (${t("highest")})` : "")]
        : h("span", { class: "muted" }, "—")),
    // the points head the line: after a long row of cards they would wrap onto a line of their own
    h("div", { class: "bz-profits", title: t("profitHelp") }, `${t("profits")} `, h("span", { class: "bz-points" }, `(${t("points", { count: info.score })})`), t("colon"),
      profitRow(view, info.profits, t)),
    info.hand ? h("div", { class: "bz-final-hand" }, `${t("handAtEnd")}${t("colon")}`, row(info.hand)) : null);  // shown at the end (BZ-E3)
}

// the bid in the making: the cards already bid in this auction, then those held on the page (each goes back
// to the hand on a click), its total, and Bid: shown whenever there is a bid, open once the total beats the
// highest bid, else closed with the number to beat beside it (BZ-A4: a raise must beat the highest bid; a
// newcomer outbid, or holding too little, saw Bid vanish and nothing saying why)
function biddingPanel(view, seat, can, act, t, redraw) {
  const sent = view.me_bid || [];
  const held = building.cards;
  if (!sent.length && !held.length) return null;
  const sum = total(sent) + total(held);
  const high = view.auction ? view.auction.high : 0;
  const enough = sum > high;
  const why = t("mustBeat", { high });
  return h("div", { class: "bz-building" },
    h("div", {}, t("yourBid", { total: sum }), " ", sent.length ? row(sent) : null, " ",
      h("span", { class: "cards", "data-focus-group": "bid" }, held.map((code, i) => goodsCard(code, {
        onclick: () => { building.cards.splice(i, 1); redraw(); }, "aria-label": t("takeBackCard"), "data-take-back": code, title: t("takeBackCard") })))),
    held.length ? h("small", { class: "muted" }, t("takeBackHelp")) : null,
    // Bid only while the seat is to bid (it may pass): a replay paused mid-bid showed a live-looking Bid
    can.has("pass") || can.has("bid") ? h("div", {}, h("button", { class: "primary", id: "bz-bid", disabled: enough ? null : true,
      title: enough ? "" : why, "aria-describedby": enough ? null : "bz-bid-why", onclick: () => {
        sendBid(act);
      } }, t("move_bid")), enough ? null : h("small", { class: "bz-bid-why", id: "bz-bid-why" }, ` ${why}`)) : null);
}

// Bid: the cards held on the page, then the bid, at once
function sendBid(act) {
  const cards = [...building.cards];
  building.cards = [];
  for (const code of cards) act(`add ${code}`);
  act("bid");
}

// A move of the moves panel (typed, or clicked in its list) while a bid is being built on the page: `add`
// holds the card on the page as a click on it in the hand does ("held": it can go back until Bid; typed or
// clicked in the list it was sent for good, and a card held by a click was then sent by its `add` in the
// list: issue 32, seventeenth pass), `bid` bids the cards held as Bid does (it said "a bid must beat 5 (your
// bid is 0)" beside "Your bid: 2"), and `pass` lets them go with the bid (BZ-A5); every other move goes to the
// server as it is. True when the page played the move itself.
export function typed(move, act) {
  const text = move.trim().toLowerCase().replace(/\s+/g, " ");
  if (text.startsWith("add ") && holdCard) return holdCard(text.slice(4)) ? "held" : false;
  if (text === "bid" && building.cards.length) { sendBid(act); return true; }
  if (text === "pass") building.cards = [];
  return false;
}

// The moves the page holds (the platform's hint shows what is left of its plan) and a word to it on a change
export function held() {
  return building.cards.map((code) => `add ${code}`);
}
function heldChanged() {
  document.dispatchEvent(new Event("merchantry:held"));
}

// Holds a card of the hand on the bid in the making (`typed`), while the seat is to bid: one the hand still
// has beside those held; one already held stays so (a second `add` of it is not a second card)
let holdCard = null;
function holder(view, can, redraw) {
  return (code) => {
    if (!can.has(`add ${code}`)) return false;
    if (withoutCards(view.hand, building.cards).includes(code)) { building.cards.push(code); redraw(); }
    return true;
  };
}

// Over the hand limit (BZ-H1), the cards to discard are chosen on the page (a click puts one back), then one
// press of Discard sends them all: one decision, no dialog per card
const discarding = { key: null, cards: [] };

function discardPanel(view, can, act, t, redraw) {
  const key = `${view.round}:${view.hand.join(" ")}`;  // a sale or a discard starts the choice afresh
  if (discarding.key !== key) { discarding.key = key; discarding.cards = []; }
  const need = view.hand.length - view.hand_limit;
  const chosen = discarding.cards;
  const left = withoutCards(view.hand, chosen);
  const choices = [...new Set(left)].filter((code) => can.has(`discard ${code}`));
  const full = chosen.length >= need;
  return h("div", { class: "bz-discard", role: "group", "aria-label": t("discardTitle") },
    h("strong", {}, t("discardTitle")), " ", h("small", { class: "muted" }, t("discardPick", { count: need })), " ",
    h("div", { class: "cards", "data-focus-group": "discard" }, choices.map((code) => h("button", { class: "danger", "data-stage-discard": code,
      disabled: full ? true : null, onclick: () => { discarding.cards.push(code); redraw(); } }, `${t("discard")} ${term(code)}`))),
    chosen.length ? h("div", { class: "bz-discard-chosen" }, `${t("discardChosen")}${t("colon")}`,
      h("span", { class: "cards" }, chosen.map((code, i) => goodsCard(code, { onclick: () => { discarding.cards.splice(i, 1); redraw(); },
        "aria-label": t("takeBackCard"), title: t("takeBackCard"), "data-unstage-discard": code }))), " ",
      h("button", { class: "danger", id: "bz-discard-go", onclick: () => {
        const cards = [...chosen];
        discarding.cards = [];
        for (const code of cards) act(`discard ${code}`);
      } }, t("discardGo", { count: chosen.length }))) : null);
}

function handPanel(view, seat, can, act, t, redraw) {
  if (seat === null || !view.hand || view.phase === "over") return null;  // once over, with every seat's hand
  const limit = view.hand_limit_player === seat;
  const held = building.cards;
  const hand = withoutCards(view.hand, held);
  const groups = TYPE_ORDER.map((kind) => [kind, hand.filter((c) => kindOf(c) === kind)]).filter(([, cards]) => cards.length);
  const sells = [...can].filter((m) => m.startsWith("sell "));
  const hold = (move) => { building.cards.push(move.slice(4)); redraw(); };  // "add wine3": onto the bid, on the page
  return h("div", { class: "mine" },
    h("div", { class: "group-title" }, t("hand"), ` (${hand.length} / 7)`),  // less the cards held for the bid
    h("div", { class: "bz-groups", "data-focus-group": "hand" }, groups.map(([kind, cards]) => h("div", { class: "bz-group" },
      h("small", { class: "muted" }, `${term(kind)} ×${cards.length}`),
      row(cards, limit ? null : (c) => `add ${c}`, can, hold)))),
    biddingPanel(view, seat, can, act, t, redraw),
    limit ? discardPanel(view, can, act, t, redraw) : null,
    sells.length ? h("div", { class: "bz-sells" }, h("small", { class: "muted" }, t("sellHelp")), " ",
      sells.map((m) => h("button", { class: "bz-sell", "data-move": m, onclick: () => act(m) },
        t("sellSet", { cards: setInWords(m.slice(5).split(" "), t), count: setPoints(m.slice(5).split(" "), view.merchant_profit) })))) : null);
}

// a set's cards by their names in the reader's language ("Oliven 3, Oliven 1, Händler"), as the log names
// them: the notation ("olive3 olive1 merchant") is the moves list's, for people who type
function setInWords(codes, t) {
  return codes.map((code) => term(code)).join(t("listSeparator"));
}

// a heading's "(tie-break)" stays whole on a phone: a line may break before it, never at its hyphen
function unbroken(heading) {
  const at = heading.indexOf(" (");
  return at < 0 ? heading : [heading.slice(0, at), " ", h("span", { class: "nowrap" }, heading.slice(at + 1))];
}

function finalTable(view, table, t) {
  const order = view.seats.map((s) => s.seat).sort((a, b) => view.seats[b].score - view.seats[a].score || view.seats[b].hand_size - view.seats[a].hand_size);
  const rankOf = (s) => 1 + order.filter((o) => view.seats[o].score > view.seats[s].score
    || (view.seats[o].score === view.seats[s].score && view.seats[o].hand_size > view.seats[s].hand_size)).length;
  return h("table", { class: "scores bz-final" },
    h("caption", {}, t("finalTitle")),
    h("thead", {}, h("tr", {}, [t("rank"), t("seat"), t("profitPoints"), t("cardsInHand")].map((c) => h("th", {}, unbroken(c))))),
    h("tbody", {}, order.map((s) => h("tr", { class: view.winners.includes(s) ? "current-row" : "" },
      h("td", { class: "num" }, String(rankOf(s))), h("td", {}, seatName(table, s)),
      h("td", { class: "num" }, String(view.seats[s].score)), h("td", { class: "num" }, String(view.seats[s].hand_size))))));
}

// keyboard focus stays in place across a redraw of the page's own (a card held back or taken back)
function refocus(root, before) {
  if (!before) return;
  const same = before.move ? root.querySelector(`[data-move="${CSS.escape(before.move)}"]`) : null;
  const group = before.group ? root.querySelector(`[data-focus-group="${before.group}"]`) : null;
  const members = group ? [...group.querySelectorAll("button")] : [];
  const next = same || members[Math.min(before.index, members.length - 1)] || root.querySelector("[data-focus-group=hand] button");
  if (next) next.focus({ preventScroll: true });
}

function focusedIn(root) {
  const node = document.activeElement;
  if (!root || !node || !root.contains(node)) return null;
  const group = node.closest("[data-focus-group]");
  return { move: node.dataset.move, group: group && group.dataset.focusGroup, index: group ? [...group.querySelectorAll("button")].indexOf(node) : 0 };
}

export function render(payload, act, t, tr = { term: (w) => w }) {
  term = tr.term;
  const { view, legal, seat, table } = payload;
  const can = new Set(legal);
  view.me_bid = seat !== null ? view.seats[seat].bid : [];
  // (a guided first game stages its bids the same way: its steps ask for the cards and Bid together)
  const bidding = view.phase === "auction" && legal.some((m) => m.startsWith("add "));
  const key = bidding ? turnKey(view, table) : null;
  if (building.turn !== key) { building.turn = key; building.cards = []; }
  building.cards = bidding ? heldBack(view.hand || []) : [];
  let root = null;
  const redraw = () => { const before = focusedIn(root); const again = render(payload, act, t, tr); root.replaceWith(again); root = again; refocus(again, before); heldChanged(); };
  holdCard = bidding && seat !== null ? holder(view, can, redraw) : null;
  // (Bid is the bidding panel's while it shows a bid: sent cards or cards held on the page)
  const panelBids = building.cards.length > 0 || view.me_bid.length > 0;
  const main = ["bid", "pass", "done"].filter((m) => can.has(m) && !(m === "bid" && panelBids));
  const takes = legal.filter((m) => m.startsWith("take "));
  const pickOrder = view.market_order ? view.market_order.map((s) => seatName(table, s).split(" ")[0]).join(" → ") : "";
  // the latest change to the market (a bid or a lot card put in, a pick, the leftovers removed), or what the
  // last auction's winner did with the lot; nothing once a new round has begun
  const lastLot = [...(view.log || [])].reverse().find((e) => MARKET_EVENTS.includes(e.type));
  const lastLotText = lastLot && lastLot.type !== "round" && tr.event ? tr.event(lastLot, (s) => seatName(table, s).split(" ")[0]) : null;
  const over = view.phase === "over";  // no offer cards are to come once the game is over
  // no prompt, no banner: a replay seen by the seat to move (nothing to do there) drew an empty yellow strip
  const said = prompt(view, seat, table, can, t);
  root = h("section", { class: "byzanz" },
    said ? h("div", { class: "banner bz-prompt", role: "status" }, said) : null,
    h("div", { class: "status-line" }, `${t("round")} ${view.round} / ${view.rounds} · ${t(`phase_${view.phase}`)}`
      + (over ? "" : ` · ${t("deck")} ${view.deck}`)
      + (view.offers_to_come.length ? ` · ${t("offersLeft")}${t("colon")}${view.offers_to_come.join(" ")}` : "")),
    main.length || takes.length ? h("div", { class: "bz-actions" },
      main.map((m) => h("button", { class: "primary", "data-move": m, onclick: () => act(m) }, t(`move_${m}`))),
      takes.map((m) => h("button", { class: "primary", "data-move": m, onclick: () => act(m) },
        t("takeType", { kind: term(m.slice(5)), count: view.market.filter((c) => kindOf(c) === m.slice(5)).length })))) : null,
    view.phase === "over" ? finalTable(view, table, t) : null,
    over ? null : h("div", { class: "market" },
      h("div", { class: "group" }, h("div", { class: "group-title" }, t("lot")), row(view.lot, (c) => `market ${c}`, can, act)),
      h("div", { class: "group" }, h("div", { class: "group-title" }, t("market"), pickOrder ? h("small", { class: "muted" }, ` · ${t("pickOrder")}${t("colon")}${pickOrder}`) : null),
        row(view.market), lastLotText ? h("div", { class: "muted bz-last-lot" }, lastLotText) : null)),
    handPanel(view, seat, can, act, t, redraw),
    h("div", { class: "seats" }, view.seats.map((info) => seatBox(view, info, seat, table, t))));
  return root;
}

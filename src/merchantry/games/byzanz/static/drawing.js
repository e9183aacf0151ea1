// Byzanz in the browser: a prompt for every decision, the lot, each seat's bid as a labelled row with its total,
// offer cards and profits apart from bids, the market with its pick order, your hand grouped by good with the
// sets you can sell, discards in a panel of their own (never mistaken for bidding), and the final table.
import { h, seatName } from "/static/dom.js";

let term = (word) => word; // card names in the reader's language, set by render
const TYPE_ORDER = ["cloth", "spice", "wine", "wood", "grain", "olive", "merchant"];

function kindOf(code) {
  return code.replace(/\d+$/, "");
}

function valueOf(code) {
  return code === "merchant" ? 0 : Number(code.slice(kindOf(code).length));
}

function goodsCard(code, attrs = {}) {
  const kind = kindOf(code);
  const value = code === "merchant" ? "★" : String(valueOf(code));
  // an accessible name starts with what the card shows, then says what clicking does
  const named = attrs["aria-label"] ? { ...attrs, "aria-label": `${value} ${term(kind)} — ${attrs["aria-label"]}` } : attrs;
  return h(attrs.onclick ? "button" : "span", { class: `card g-${kind}`, title: `${term(kind)} ${value}`, ...named },
    h("span", { class: "card-value" }, value), " ", h("span", { class: "card-kind" }, term(kind)));
}

function row(codes, moveFor, can, act) {
  return h("span", { class: "cards" }, codes.length ? codes.map((code) => {
    const move = moveFor ? moveFor(code) : null;
    return move && can.has(move) ? goodsCard(code, { onclick: () => act(move), "aria-label": move, "data-move": move }) : goodsCard(code);
  }) : h("span", { class: "muted" }, "—"));
}

function total(codes) {
  return codes.reduce((sum, code) => sum + valueOf(code), 0);
}

// BZ-V1/V2: a set keeps its highest good as profit; three merchants keep a merchant worth 5
function setPoints(codes) {
  const goods = codes.filter((c) => c !== "merchant");
  return goods.length ? Math.max(...goods.map(valueOf)) : 5;
}

function prompt(view, seat, table, can, t) {
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

function seatBox(view, info, seat, table, t) {
  const s = info.seat;
  const auction = view.auction;
  const out = auction && !info.offer && !auction.in.includes(s);
  return h("div", { class: `seat${s === seat ? " me" : ""}${view.to_act.includes(s) ? " current" : ""}` },
    h("div", { class: "seat-name" }, seatName(table, s)),
    h("div", { class: "muted" }, t("handSize", { count: info.hand_size }), info.discarded ? ` · ${t("discardedCount", { count: info.discarded })}` : ""),
    info.offer ? h("div", { class: "bz-offer", title: t("offerHelp") }, `${t("offerCard")}: ${info.offer}`) : null,
    h("div", { class: "bz-bid" }, `${t("bid")}: `, out ? h("span", { class: "muted" }, t("passed"))
      : info.bid.length ? [row(info.bid), ` = ${total(info.bid)}`, auction && auction.high_bidder === s ? ` (${t("highest")})` : ""]
        : h("span", { class: "muted" }, "—")),
    h("div", { class: "bz-profits", title: t("profitHelp") }, `${t("profits")}: `, info.profits.length ? row(info.profits) : "—", ` · ${t("points", { count: info.score })}`));
}

function handPanel(view, seat, can, act, t) {
  if (seat === null || !view.hand) return null;
  const limit = view.hand_limit_player === seat;
  const groups = TYPE_ORDER.map((kind) => [kind, view.hand.filter((c) => kindOf(c) === kind)]).filter(([, cards]) => cards.length);
  const sells = [...can].filter((m) => m.startsWith("sell "));
  const mine = view.me_bid || [];
  return h("div", { class: "mine" },
    h("div", { class: "group-title" }, t("hand"), ` (${view.hand.length} / 7)`),
    h("div", { class: "bz-groups" }, groups.map(([kind, cards]) => h("div", { class: "bz-group" },
      h("small", { class: "muted" }, `${term(kind)} ×${cards.length}`),
      row(cards, limit ? null : (c) => `add ${c}`, can, act)))),
    mine.length ? h("div", {}, t("yourBid", { total: total(mine) })) : null,
    limit ? h("div", { class: "bz-discard", role: "group", "aria-label": t("discardTitle") },
      h("strong", {}, t("discardTitle")), " ",
      [...can].filter((m) => m.startsWith("discard ")).map((m) => h("button", { class: "danger", "data-move": m,
        onclick: () => { if (!window.confirm || window.confirm(t("discardConfirm", { card: term(m.slice(8)) }))) act(m); } },
      `${t("discard")} ${m.slice(8)}`))) : null,
    sells.length ? h("div", { class: "bz-sells" }, h("small", { class: "muted" }, t("sellHelp")), " ",
      sells.map((m) => h("button", { class: "bz-sell", "data-move": m, onclick: () => act(m) },
        t("sellSet", { cards: m.slice(5), count: setPoints(m.slice(5).split(" ")) })))) : null);
}

function finalTable(view, table, t) {
  const order = view.seats.map((s) => s.seat).sort((a, b) => view.seats[b].score - view.seats[a].score || view.seats[b].hand_size - view.seats[a].hand_size);
  const rankOf = (s) => 1 + order.filter((o) => view.seats[o].score > view.seats[s].score
    || (view.seats[o].score === view.seats[s].score && view.seats[o].hand_size > view.seats[s].hand_size)).length;
  return h("table", { class: "scores bz-final" },
    h("caption", {}, t("finalTitle")),
    h("thead", {}, h("tr", {}, [t("rank"), t("seat"), t("profitPoints"), t("cardsInHand")].map((c) => h("th", {}, c)))),
    h("tbody", {}, order.map((s) => h("tr", { class: view.winners.includes(s) ? "current-row" : "" },
      h("td", { class: "num" }, String(rankOf(s))), h("td", {}, seatName(table, s)),
      h("td", { class: "num" }, String(view.seats[s].score)), h("td", { class: "num" }, String(view.seats[s].hand_size))))));
}

export function render(payload, act, t, tr = { term: (w) => w }) {
  term = tr.term;
  const { view, legal, seat, table } = payload;
  const can = new Set(legal);
  view.me_bid = seat !== null ? view.seats[seat].bid : [];
  const main = ["bid", "pass", "done"].filter((m) => can.has(m));
  const takes = legal.filter((m) => m.startsWith("take "));
  const pickOrder = view.market_order ? view.market_order.map((s) => seatName(table, s).split(" ")[0]).join(" → ") : "";
  // what the last auction's winner did with the lot (put a card into the market, or took it all)
  const lastLot = [...(view.log || [])].reverse().find((e) => ["lot_card_to_market", "all_passed", "last_auction", "round"].includes(e.type));
  const lastLotText = lastLot && lastLot.type !== "round" && tr.event ? tr.event(lastLot, (s) => seatName(table, s).split(" ")[0]) : null;
  return h("section", { class: "byzanz" },
    h("div", { class: "banner bz-prompt", role: "status" }, prompt(view, seat, table, can, t)),
    h("div", { class: "status-line" }, `${t("round")} ${view.round} / ${view.rounds} · ${t(`phase_${view.phase}`)} · `
      + `${t("deck")} ${view.deck} · ${t("offersLeft")}: ${view.offer_stack.slice().reverse().join(" ") || "—"}`),
    main.length || takes.length ? h("div", { class: "bz-actions" },
      main.map((m) => h("button", { class: "primary", "data-move": m, onclick: () => act(m) }, t(`move_${m}`))),
      takes.map((m) => h("button", { class: "primary", "data-move": m, onclick: () => act(m) },
        t("takeType", { kind: term(m.slice(5)), count: view.market.filter((c) => kindOf(c) === m.slice(5)).length })))) : null,
    view.phase === "over" ? finalTable(view, table, t) : null,
    h("div", { class: "market" },
      h("div", { class: "group" }, h("div", { class: "group-title" }, t("lot")), row(view.lot, (c) => `market ${c}`, can, act)),
      h("div", { class: "group" }, h("div", { class: "group-title" }, t("market"), pickOrder ? h("small", { class: "muted" }, ` · ${t("pickOrder")}: ${pickOrder}`) : null),
        row(view.market), lastLotText ? h("div", { class: "muted bz-last-lot" }, lastLotText) : null)),
    handPanel(view, seat, can, act, t),
    h("div", { class: "seats" }, view.seats.map((info) => seatBox(view, info, seat, table, t))));
}

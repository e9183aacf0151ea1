// Byzanz in the browser: the lot, the bids, the market, the offer cards, your hand by type, every seat's score.
import { h, seatName } from "/static/dom.js";

let term = (word) => word; // card names in the reader's language, set by render

function goodsCard(code, attrs = {}) {
  const kind = code.replace(/\d+$/, "");
  const value = code === "merchant" ? "★" : code.slice(kind.length);
  return h(attrs.onclick ? "button" : "span", { class: `card g-${kind}`, title: code, ...attrs },
    h("span", { class: "card-value" }, value), h("span", { class: "card-kind" }, term(kind)));
}

function row(codes, moveFor, can, act) {
  return h("span", { class: "cards" }, codes.length ? codes.map((code) => {
    const move = moveFor ? moveFor(code) : null;
    return move && can.has(move) ? goodsCard(code, { onclick: () => act(move), "aria-label": move }) : goodsCard(code);
  }) : h("span", { class: "muted" }, "—"));
}

export function render(payload, act, t, tr = { term: (w) => w }) {
  term = tr.term;
  const { view, legal, seat, table } = payload;
  const can = new Set(legal);
  const limit = view.hand_limit_player === seat && seat !== null;
  const auction = view.auction;
  const seats = h("div", { class: "seats" }, view.seats.map((info) => {
    const s = info.seat;
    let bid = info.bid.length ? row(info.bid) : "";
    if (auction && !info.offer && !auction.in.includes(s)) bid = h("span", { class: "muted" }, "pass");
    return h("div", { class: `seat${s === seat ? " me" : ""}${view.to_act.includes(s) ? " current" : ""}` },
      h("div", { class: "seat-name" }, seatName(table, s)),
      h("div", { class: "muted" }, `${info.hand_size} ${t("cards")}${info.discarded ? ` (−${info.discarded})` : ""}`
        + (info.offer ? ` · ${info.offer}` : "")),
      h("div", {}, bid, auction && auction.high_bidder === s ? ` = ${auction.high}` : ""),
      info.profits.length ? h("div", {}, row(info.profits), ` ${info.score}`) : null);
  }));
  const handMove = (code) => (limit ? `discard ${code}` : `add ${code}`);
  const buttons = legal.filter((m) => ["bid", "pass", "done"].includes(m) || m.startsWith("sell ") || m.startsWith("take "));
  return h("section", { class: "byzanz" },
    h("div", { class: "status-line" }, `${t("round")} ${view.round} / ${view.rounds} · ${t(`phase_${view.phase}`)} · `
      + `${t("deck")} ${view.deck} · ${view.offer_stack.slice().reverse().join(" ")}`),
    h("div", { class: "market" },
      h("div", { class: "group" }, h("div", { class: "group-title" }, t("lot")), row(view.lot, (c) => `market ${c}`, can, act)),
      h("div", { class: "group" }, h("div", { class: "group-title" }, t("market")), row(view.market))),
    seats,
    seat !== null && view.hand ? h("div", { class: "mine" },
      h("div", { class: "group-title" }, t("hand")), row(view.hand, handMove, can, act),
      h("div", {}, buttons.map((m) => h("button", { class: m === "bid" || m.startsWith("take") ? "primary" : "", onclick: () => act(m) }, m)))) : null,
  );
}

// Grand Bazaar in the browser: the price board with its history, the bazaar's stock, everyone's gems and cash.
import { h, seatName } from "/static/dom.js";

const HISTORY = 8;

export function render(payload, act, t, tr = { term: (w) => w }) {
  const { view, legal, seat, table } = payload;
  const can = new Set(legal);
  const remaining = view.remaining_cards;
  const history = view.price_history.slice(-HISTORY);
  const firstRound = view.price_history.length - history.length;
  const board = h("table", { class: "scores prices" },
    h("caption", {}, t("prices")),
    h("thead", {}, h("tr", {}, h("th", {}, ""),
      history.map((_, i) => h("th", {}, firstRound + i === 0 ? "·" : `r${firstRound + i}`)),
      h("th", {}, t("stock")), h("th", {}, "±"), h("th", {}, ""))),
    h("tbody", {}, view.gems.map((gem, g) => {
      const expected = remaining.length ? remaining.reduce((sum, card) => sum + card[g], 0) / remaining.length : 0;
      return h("tr", { class: `gem-${gem}` },
        h("th", {}, tr.term(gem)),
        history.map((prices, i) => {
          const before = i > 0 ? history[i - 1][g] : prices[g];
          const mark = prices[g] > before ? " ↑" : prices[g] < before ? " ↓" : "";
          return h("td", { class: "num" }, `${prices[g]}${mark}`);
        }),
        h("td", { class: "num" }, String(view.stock[g])),
        h("td", { class: "num" }, expected.toFixed(2)),
        h("td", {}, [`buy ${gem}`, `sell ${gem}`].filter((m) => can.has(m)).map((m) => h("button", { class: "primary", onclick: () => act(m) }, m))));
    })));
  const holdings = h("table", { class: "scores" },
    h("thead", {}, h("tr", {}, h("th", {}, t("seat")), view.gems.map((g) => h("th", {}, tr.term(g))), h("th", {}, t("cash")),
      view.ranks ? h("th", {}, "#") : null)),
    h("tbody", {}, view.holdings.map((row) => h("tr", { class: `${row.seat === view.current ? "current-row" : ""}${row.seat === seat ? " me" : ""}` },
      h("td", {}, seatName(table, row.seat)), row.gems.map((n) => h("td", { class: "num" }, String(n))),
      h("td", { class: "num" }, String(row.cash)), view.ranks ? h("td", { class: "num" }, String(view.ranks[row.seat])) : null))));
  return h("section", { class: "grand-bazaar" },
    h("div", { class: "status-line" }, `${t("round")} ${view.round} / ${view.rounds} · ${remaining.length} ${t("cards")}`),
    board,
    can.has("done") ? h("button", { class: "primary", onclick: () => act("done") }, "done") : null,
    holdings);
}

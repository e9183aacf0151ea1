// The lobby's open seats (server/lobby.py): tables waiting for players with a seat anyone may take,
// filtered by game, players and pace; "Take seat" sits you there (as your account if logged in).
import { h, seatHolderNoted, seatLabel } from "./dom.js";
import { gameTitle, listOf, t } from "./i18n.js";
import { ratingText } from "./ratings.js";

export function openSeatsSection(games, { api, toast, save, open }) {
  const gameFilter = h("select", { id: "lobby-game", "aria-label": t("game") },
    h("option", { value: "" }, t("anyGame")), games.map((g) => h("option", { value: g.name }, gameTitle(g.name, g.title))));
  const playersFilter = h("input", { id: "lobby-players", type: "number", min: 1, max: 10, placeholder: t("players"), "aria-label": t("players") });
  const paceFilter = h("select", { id: "lobby-pace", "aria-label": t("pace") },
    h("option", { value: "" }, t("anyPace")),
    h("option", { value: "realtime" }, t("pace_realtime")),
    h("option", { value: "turn-based" }, t("pace_turn-based")));
  const ratedFilter = h("select", { id: "lobby-rated", "aria-label": t("rated") },
    h("option", { value: "" }, t("anyRated")), h("option", { value: "true" }, t("onlyRated")), h("option", { value: "false" }, t("onlyCasual")));
  const list = h("tbody", { id: "open-seats" });

  async function take(table, seat) {
    const name = localStorage.getItem("merchantry:name") || "Guest";
    try {
      const taken = await api(`/api/lobby/${table.id}/seats/${seat}`, { method: "POST", body: JSON.stringify({ name }) });
      save(table.id, { seat: taken.seat, token: taken.token });
      open(`/table/${table.id}`);
    } catch (error) { toast(error.message); }
  }

  async function refresh() {
    const query = new URLSearchParams();
    if (gameFilter.value) query.set("game", gameFilter.value);
    if (playersFilter.value) query.set("players", playersFilter.value);
    if (paceFilter.value) query.set("pace", paceFilter.value);
    if (ratedFilter.value) query.set("rated", ratedFilter.value);
    let tables = [];
    try { tables = await api(`/api/lobby?${query}`); } catch (error) { toast(error.message); }
    // each seat's rating in the table's game beside its name (an account's once it has played a rated game)
    const who = (table, s) => {
      const rating = (table.ratings || {})[s.seat];
      return `${seatHolderNoted(s)}${rating ? ` ${ratingText(rating)}` : ""}`;
    };
    list.replaceChildren(...tables.map((table) => h("tr", { "data-table": table.id },
      h("td", {}, gameTitle(table.game, table.title)),
      h("td", { class: "seat-names" }, listOf(table.seats.map((s) => who(table, s)))),
      h("td", {}, t(`pace_${table.pace}`), table.rated ? ` · ${t("rated")}` : ""),
      h("td", {}, table.open.map((seat) => h("button", { type: "button", class: "take-seat", onclick: () => take(table, seat) },
        t("joinAs", { seat: seatLabel(seat) })))))));
    if (!tables.length) list.replaceChildren(h("tr", {}, h("td", { colspan: 4 }, t("noOpenSeats"))));
  }
  for (const input of [gameFilter, playersFilter, paceFilter, ratedFilter]) input.addEventListener("change", refresh);
  refresh();
  return h("section", { id: "lobby-open" },
    h("p", { id: "leaderboards" }, `${t("leaderboard")}${t("colon")}`, games.flatMap((g, i) => [i ? " · " : "", h("a", { href: `/leaderboard/${g.name}` }, gameTitle(g.name, g.title))])),
    h("h2", {}, t("openSeats")),
    h("div", { class: "filters" }, gameFilter, playersFilter, paceFilter, ratedFilter),
    h("table", { class: "open-tables" },
      h("thead", {}, h("tr", {}, [t("game"), t("players"), t("pace"), ""].map((c) => h("th", {}, c)))),
      list));
}

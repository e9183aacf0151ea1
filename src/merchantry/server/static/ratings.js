// Profiles and leaderboards (server/ratings.py). A rating is openskill's mu ± sigma; the leaderboard
// orders by the ordinal mu - 3 sigma, a conservative estimate.
import { h, seatLabel } from "./dom.js";
import { gameTitle, language, listOf, t } from "./i18n.js";

export const ratingText = (r) => `${r.mu.toFixed(1).replace("-", "\u2212")} ± ${r.sigma.toFixed(1)}`;  // "−" (U+2212), not "-"

export const outcome = (won) => (won ? t("won") : t("lost"));

// A table as a person reads it: the game's name, the day, who sat where (with the final scores once over)
export function tableSummary(entry, games) {
  const title = gameTitle(entry.game, (games.find((g) => g.name === entry.game) || { title: entry.game }).title);
  const iso = entry.when || "";
  const moment = iso ? new Date(/Z|[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}Z`) : null;  // SQLite's are UTC, bare
  const day = moment ? moment.toLocaleDateString(language(), { day: "numeric", month: "short", year: "numeric" }) : "";
  const name = (p) => (p.kind === "bot" ? `${p.bot} (bot)` : p.name || "…");
  const who = listOf((entry.players || []).map((p) => `${seatLabel(p.seat)} ${name(p)}${entry.scores ? ` ${entry.scores[p.seat]}` : ""}`));
  return { title, day, who };
}

export async function profilePage(main, api, name, games) {
  const profile = await api(`/api/players/${encodeURIComponent(name)}`);
  const title = (game) => gameTitle(game, (games.find((g) => g.name === game) || { title: game }).title);
  const perGame = Object.entries(profile.games).map(([game, g]) => h("tr", {},
    h("td", {}, h("a", { href: `/leaderboard/${game}` }, title(game))),
    h("td", {}, String(g.played)), h("td", {}, String(g.won)),
    h("td", { class: "rating" }, g.rating ? ratingText(g.rating) : "–")));
  const recent = profile.recent.map((r) => {
    const { day, who } = tableSummary({ ...r, when: r.finished_at }, games);
    return h("tr", {},
      h("td", {}, day), h("td", {}, title(r.game)), h("td", {}, who),
      h("td", {}, `${seatLabel(r.seat)} ${outcome(r.won)}`, r.rated ? ` · ${t("rated")}` : ""),
      h("td", { class: "links" }, h("a", { href: r.table }, t("open")), " · ", h("a", { href: r.replay }, t("replay")), " · ",
        h("a", { href: r.analysis }, t("analysis"))));
  });
  main.replaceChildren(
    h("h1", { id: "profile-name" }, profile.name),
    h("h2", {}, t("perGame")),
    h("table", { class: "open-tables", id: "profile-games" },
      h("thead", {}, h("tr", {}, [t("game"), t("played"), t("won"), t("rating")].map((c) => h("th", {}, c)))),
      h("tbody", {}, perGame)),
    h("p", { class: "chat-note" }, t("ratingHelp")),
    h("h2", {}, t("recentGames")),
    h("table", { class: "open-tables", id: "profile-recent" },
      h("thead", {}, h("tr", {}, [t("endedOn"), t("game"), t("players"), t("result"), ""].map((c) => h("th", {}, c)))),
      h("tbody", {}, recent)));
}

export async function leaderboardPage(main, api, game, games) {
  const board = await api(`/api/leaderboard/${encodeURIComponent(game)}`);
  const title = gameTitle(game, (games.find((g) => g.name === game) || { title: game }).title);
  const picker = h("p", {}, games.flatMap((g, i) => [i ? " · " : "", h("a", { href: `/leaderboard/${g.name}` }, gameTitle(g.name, g.title))]));
  main.replaceChildren(
    h("h1", {}, `${t("leaderboard")}${t("colon")}${title}`), picker,
    h("table", { class: "open-tables", id: "leaderboard" },
      h("thead", {}, h("tr", {}, ["#", t("accountName"), t("rating"), t("played"), t("won")].map((c) => h("th", {}, c)))),
      h("tbody", {}, board.leaders.map((row, i) => h("tr", {},
        h("td", {}, String(i + 1)), h("td", {}, h("a", { href: `/player/${encodeURIComponent(row.name)}` }, row.name)),
        h("td", { class: "rating" }, ratingText(row.rating)), h("td", {}, String(row.games)), h("td", {}, String(row.wins)))))),
    h("h2", {}, t("botRatings")),
    h("p", {}, board.bots.map((b) => `${b.bot} ${ratingText(b.rating)}`).join(" · ")),
    h("p", { class: "chat-note" }, t("ratingHelp")));
}

// At a table: each seat's rating in its game (accounts' as they are, bots' fixed), under the board
export function tableRatings(api, tableId) {
  const line = h("p", { id: "table-ratings", class: "chat-note" });
  api(`/api/tables/${tableId}/ratings`).then((answer) => {
    const seats = Object.entries(answer.seats);
    // an unrated table (a guided first game too) changes no rating: a bot's fixed figure there only puzzles
    if (!seats.length || !answer.rated) return;
    line.replaceChildren(`${t("rating")} (${t("rated")}): `,
      seats.map(([seat, r]) => `P${Number(seat) + 1} ${ratingText(r)}${r.fixed ? ` (${t("botFixed")})` : ""}`).join(" · "),
      h("small", { class: "muted" }, ` — ${t("ratingHelp")}`));
  }).catch(() => {});
  return line;
}

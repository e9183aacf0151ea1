"""A tournament's report: PNG plots (matplotlib), the same tables and plots as Markdown, and a
self-contained HTML page (plots embedded), with a section that explains the statistics."""

from __future__ import annotations

import base64
import html
import statistics as stats_module
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

from merchantry import games  # noqa: E402
from merchantry.arena import statistics  # noqa: E402

PLOTS = {
    "win_rate_by_bot.png": "Win rate by bot, with 95% intervals (dashed: the share of a seat, 1/players)",
    "ratings.png": "Ratings (openskill mu with ±3 sigma; the dot is the ordinal mu - 3 sigma)",
    "win_rate_by_seat.png": "Win rate by seat, with 95% intervals (dashed: equal shares)",
    "scores_by_bot.png": "Final scores by bot",
    "game_length.png": "Game length",
}


Table = tuple[str, list[str], list[list[str]]]  # caption, header, rows


def write(folder: Path, analysis: dict[str, Any]) -> list[Path]:
    """Write a tournament's plots, report.md and report.html into `folder`; returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    plots = [_bots, _ratings, _seats, _scores, _length]
    files = [draw(folder / name, analysis) for name, draw in zip(PLOTS, plots, strict=True)]
    return [*files, *documents(folder, title(analysis), tables(analysis), PLOTS)]


def documents(folder: Path, heading: str, parts: list[Table], plots: dict[str, str]) -> list[Path]:
    """report.md and report.html: the same tables and plots, then how to read the statistics."""
    markdown = folder / "report.md"
    markdown.write_text(as_markdown(heading, parts, plots), encoding="utf-8")
    page = folder / "report.html"
    page.write_text(as_html(heading, parts, plots, folder), encoding="utf-8")
    return [markdown, page]


def title(analysis: dict[str, Any]) -> str:
    t = analysis["tournament"]
    return (
        f"{games.get(t['game']).title}: tournament of {', '.join(t['bots'])} — {t['players']} players, "
        f"{t['played']} of {t['games']} games, seed {t['seed']}"
        + "".join(f", {name}={value}" for name, value in sorted(t.get("options", {}).items()))
    )


# --- plots ------------------------------------------------------------------------------------------


def _save(figure: Any, path: Path) -> Path:
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def _error_bars(rows: list[dict[str, float]]) -> list[list[float]]:
    """Matplotlib's error bars (below, above) in percent from rows with win_rate, win_low, win_high
    (never negative: at 0% the interval's float low end may sit a hair above the rate)."""
    below = [max(0.0, 100 * (row["win_rate"] - row["win_low"])) for row in rows]
    above = [max(0.0, 100 * (row["win_high"] - row["win_rate"])) for row in rows]
    return [below, above]


def _bots(path: Path, analysis: dict[str, Any]) -> Path:
    """What a designer asks first: how often each bot wins, and how sure the run is of it."""
    by_bot = sorted(analysis["by_bot"].items(), key=lambda item: item[1]["win_rate"])
    figure, axes = plt.subplots(figsize=(7, 0.6 * len(by_bot) + 1.5))
    names = [name for name, _ in by_bot]
    rates = [100 * row["win_rate"] for _, row in by_bot]
    axes.barh(names, rates, xerr=_error_bars([row for _, row in by_bot]), color="#d9b27c", capsize=5)
    axes.axvline(100 / analysis["tournament"]["players"], color="#2b2118", linestyle="--", linewidth=1)
    axes.set_xlabel("% of its seats won (shared wins split), 95% interval")
    axes.set_title("Win rate by bot")
    return _save(figure, path)


def _ratings(path: Path, analysis: dict[str, Any]) -> Path:
    rated = sorted(analysis["ratings"].items(), key=lambda item: item[1]["mu"])
    figure, axes = plt.subplots(figsize=(7, 0.6 * len(rated) + 1.5))
    names = [name for name, _ in rated]
    mus = [r["mu"] for _, r in rated]
    spread = [3 * r["sigma"] for _, r in rated]
    axes.errorbar(mus, names, xerr=spread, fmt="s", color="#8a4b14", capsize=5, label="mu ± 3 sigma")
    axes.plot([r["ordinal"] for _, r in rated], names, "o", color="#2b2118", label="ordinal")
    axes.set_xlabel("skill (openskill, Plackett-Luce)")
    axes.legend(loc="lower right")
    axes.set_title("Ratings")
    return _save(figure, path)


def _seats(path: Path, analysis: dict[str, Any]) -> Path:
    seats = analysis["by_seat"]
    figure, axes = plt.subplots(figsize=(7, 4))
    labels = [f"P{s + 1}" for s in range(len(seats))]
    rates = [100 * s["win_rate"] for s in seats]
    axes.bar(labels, rates, color="#d9b27c", yerr=_error_bars(seats), capsize=6)
    axes.axhline(100 / len(seats), color="#2b2118", linestyle="--", linewidth=1)
    test = analysis["seat_test"]
    axes.set_title(f"Win rate by seat (chi-square p = {test['p_value']:.3g})")
    axes.set_ylabel("% of games won (shared wins split)")
    return _save(figure, path)


def _scores(path: Path, analysis: dict[str, Any]) -> Path:
    by_bot = analysis["by_bot"]
    figure, axes = plt.subplots(figsize=(7, 4))
    names = list(by_bot)
    axes.boxplot([by_bot[name]["scores"] for name in names], tick_labels=names)
    axes.set_ylabel("final score")
    axes.set_title("Scores by bot")
    return _save(figure, path)


def _length(path: Path, analysis: dict[str, Any]) -> Path:
    length = analysis["length"]
    unit = "turns" if length["turns"] else "rounds" if len(set(length["rounds"])) > 1 else "actions"
    values = length[unit]
    figure, axes = plt.subplots(figsize=(7, 4))
    bins = range(min(values), max(values) + 2, max(1, (max(values) - min(values) + 1) // 30))
    axes.hist(values, bins=list(bins), color="#9cc9e8", edgecolor="#2a5a88")
    axes.set_xlabel(f"{unit} per game")
    axes.set_ylabel("games")
    axes.set_title("Game length")
    return _save(figure, path)


# --- text -------------------------------------------------------------------------------------------


def tables(analysis: dict[str, Any]) -> list[Table]:
    """(caption, header, rows) of every table, shared by the Markdown and the HTML."""
    ratings = analysis["ratings"]
    by_bot = analysis["by_bot"]
    rated = sorted(ratings.items(), key=lambda item: (-by_bot[item[0]]["win_rate"], -item[1]["ordinal"]))
    out = [
        (
            "Bots, most wins first (win rates with 95% intervals; then the openskill rating)",
            [
                "bot",
                "win rate",
                "95% interval",
                "seats",
                "mean score",
                "score stdev",
                "ordinal",
                "mu",
                "sigma",
            ],
            [
                [
                    name,
                    f"{100 * by_bot[name]['win_rate']:.1f}%",
                    f"{100 * by_bot[name]['win_low']:.1f}-{100 * by_bot[name]['win_high']:.1f}%",
                    str(by_bot[name]["seats"]),
                    f"{by_bot[name]['mean_score']:.1f}",
                    f"{by_bot[name]['stdev_score']:.1f}",
                    f"{r['ordinal']:.2f}",
                    f"{r['mu']:.2f}",
                    f"{r['sigma']:.2f}",
                ]
                for name, r in rated
            ],
        )
    ]
    names = [name for name, _ in rated]
    h2h = analysis["head_to_head"]
    out.append(
        (
            "Head to head: how often the row's bot finished ahead of the column's (ties count half)",
            ["", *names],
            [
                [
                    a,
                    *(
                        f"{100 * h2h[a][b]['ahead']:.0f}% ({h2h[a][b]['meetings']})" if b in h2h[a] else "—"
                        for b in names
                    ),
                ]
                for a in names
            ],
        )
    )
    test = analysis["seat_test"]
    seat_test = (
        f"chi-square {test['chi_square']:.2f}, {test['dof']} degrees of freedom, p = {test['p_value']:.3g}"
    )
    out.append(
        (
            f"Seats ({seat_test})",
            ["seat", "win rate", "95% interval", "mean score"],
            [
                [
                    f"P{s + 1}",
                    f"{100 * row['win_rate']:.1f}%",
                    f"{100 * row['win_low']:.1f}-{100 * row['win_high']:.1f}%",
                    f"{row['mean_score']:.1f}",
                ]
                for s, row in enumerate(analysis["by_seat"])
            ],
        )
    )
    return out


def _versus(meeting: dict[str, Any] | None) -> str:
    return f"{100 * meeting['ahead']:.0f}% ({meeting['meetings']})" if meeting else "—"


def explanation() -> str:
    return (statistics.__doc__ or "").split("\n\n", 1)[1].strip()


def explanation_html() -> str:
    """The explanation as HTML: its "- " items a list, the rest paragraphs."""
    blocks: list[str] = []
    items: list[str] = []
    for line in explanation().splitlines():
        text = line.strip()
        if text.startswith("- "):
            items.append(text[2:])
        elif text and items:
            items[-1] += " " + text
        elif text:
            blocks.append(f"<p>{html.escape(text)}</p>")
    if items:
        blocks.append("<ul>" + "".join(f"<li>{html.escape(item)}</li>" for item in items) + "</ul>")
    return "".join(blocks)


def as_markdown(heading: str, parts: list[Table], plots: dict[str, str]) -> str:
    lines = [f"# {heading}", ""]
    for caption, header, rows in parts:
        lines += [f"**{caption}**", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        lines.append("")
    for name, caption in plots.items():
        lines += [f"![{caption}]({name})", ""]
    lines += ["## How to read this", "", explanation(), ""]
    return "\n".join(lines)


def as_html(heading: str, tables_: list[Table], plots: dict[str, str], folder: Path) -> str:
    parts = [f"<h1>{html.escape(heading)}</h1>"]
    for caption, header, rows in tables_:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
        parts.append(f"<table><caption>{html.escape(caption)}</caption><tr>{head}</tr>{body}</table>")
    for name, caption in plots.items():
        data = base64.b64encode((folder / name).read_bytes()).decode("ascii")
        parts.append(
            f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(caption)}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>"
        )
    parts.append("<h2>How to read this</h2>" + explanation_html())
    style = (
        "body{font:15px/1.4 system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}"
        "table{border-collapse:collapse;margin:1rem 0}td,th{border-bottom:1px solid #ddd;padding:.3rem .6rem;"
        "text-align:right}caption{text-align:left;font-weight:600}img{max-width:100%}pre{white-space:pre-wrap}"
    )
    head = f'<meta charset="utf-8"><title>{html.escape(heading)}</title><style>{style}</style>'
    return f'<!doctype html><html lang="en"><head>{head}</head><body>{"".join(parts)}</body></html>\n'


# --- balance studies --------------------------------------------------------------------------------

BALANCE_PLOTS = {
    "seat_win_rates.png": "Win rate by seat, or by turn order where the first player is drawn, per variant, "
    "with 95% intervals (dashes: equal shares)",
    "scores.png": "Final scores and the winner's margin over the runner-up, per variant",
    "game_length.png": "Game length per variant",
}


def write_balance(folder: Path, analysis: dict[str, Any]) -> list[Path]:
    """Write a balance study's plots, report.md and report.html into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    plots = [_balance_seats, _balance_scores, _balance_length]
    files = [draw(folder / name, analysis) for name, draw in zip(BALANCE_PLOTS, plots, strict=True)]
    return [*files, *documents(folder, balance_title(analysis), balance_tables(analysis), BALANCE_PLOTS)]


def balance_title(analysis: dict[str, Any]) -> str:
    study = analysis["study"]
    return (
        f"{games.get(study['game']).title}: balance with {study['bot']} in every seat — "
        f"{study['games']} games per variant, seed {study['seed']}"
    )


def _length_unit(variants: dict[str, Any]) -> str:
    lengths = [v["length"] for v in variants.values()]
    if all(length["turns"] for length in lengths):
        return "turns"
    if all(len(set(length["rounds"])) > 1 for length in lengths):
        return "rounds"
    return "actions"


def balance_tables(analysis: dict[str, Any]) -> list[Table]:
    variants = analysis["variants"]
    seats = max(v["players"] for v in variants.values())
    seat_rows = []
    for label, v in variants.items():
        cells = [
            f"{100 * s['win_rate']:.1f}% ({100 * s['win_low']:.1f}-{100 * s['win_high']:.1f})"
            for s in v["seats"]
        ]
        test = v["seat_test"]
        seat_rows.append(
            [label, str(v["games"]), *cells, *[""] * (seats - len(cells)), f"{test['p_value']:.3g}"]
        )
    order_rows = []
    for label, v in variants.items():
        order = v.get("turn_order")
        if order:
            cells = [
                f"{100 * o['win_rate']:.1f}% ({100 * o['win_low']:.1f}-{100 * o['win_high']:.1f})"
                for o in order["positions"]
            ]
            order_rows.append(
                [label, *cells, *[""] * (seats - len(cells)), f"{order['test']['p_value']:.3g}"]
            )
    unit = _length_unit(variants)
    spread_rows = []
    for label, v in variants.items():
        values = sorted(v["length"][unit])
        spread_rows.append(
            [
                label,
                f"{v['mean_score']:.1f}",
                f"{v['stdev_score']:.1f}",
                f"{v['mean_margin']:.1f}",
                f"{100 * v['shared_wins']:.1f}%",
                f"{stats_module.fmean(values):.1f}",
                f"{values[len(values) // 10]}-{values[len(values) * 9 // 10]}",
            ]
        )
    by_order: list[Table] = []
    if order_rows:
        by_order.append(
            (
                "Turn order: win rate by position, 1st = the player who moved first (95% interval)",
                ["variant", *[_ordinal(p + 1) for p in range(seats)], "p (no first-player advantage)"],
                order_rows,
            )
        )
    return [
        (
            "Seat advantage: win rate by seat (95% interval), and the chi-square test's p-value",
            ["variant", "games", *[f"P{s + 1}" for s in range(seats)], "p (no seat advantage)"],
            seat_rows,
        ),
        *by_order,
        (
            f"Scores and length (game length in {unit})",
            [
                "variant",
                "mean score",
                "score stdev",
                "winner's margin",
                "shared wins",
                f"mean {unit}",
                "10%-90%",
            ],
            spread_rows,
        ),
    ]


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def _balance_seats(path: Path, analysis: dict[str, Any]) -> Path:
    """Win rate by position in the turn order where the game draws its first player (seats are then not
    positions), else by seat."""
    variants = analysis["variants"]
    by_order = all(v.get("turn_order") for v in variants.values())
    rows = {k: v["turn_order"]["positions"] if by_order else v["seats"] for k, v in variants.items()}
    figure, axes = plt.subplots(figsize=(8, 4.5))
    seats = max(v["players"] for v in variants.values())
    width = 0.8 / seats
    for s in range(seats):
        xs, rates, below, above = [], [], [], []
        for i, (label, v) in enumerate(variants.items()):
            if s < v["players"]:
                row = rows[label][s]
                xs.append(i + (s - (seats - 1) / 2) * width)
                rates.append(100 * row["win_rate"])
                (low,), (high,) = _error_bars([row])
                below.append(low)
                above.append(high)
        name = _ordinal(s + 1) if by_order else f"P{s + 1}"
        axes.bar(xs, rates, width * 0.95, yerr=[below, above], capsize=3, label=name)
    for i, v in enumerate(variants.values()):
        axes.hlines(
            100 / v["players"], i - 0.45, i + 0.45, colors="#2b2118", linestyles="dashed", linewidth=1
        )
    axes.set_xticks(range(len(variants)), list(variants))
    axes.set_ylabel("% of games won (shared wins split)")
    axes.set_title("Win rate by position in the turn order" if by_order else "Win rate by seat")
    axes.legend(ncol=min(seats, 7), fontsize="small")
    return _save(figure, path)


def _balance_scores(path: Path, analysis: dict[str, Any]) -> Path:
    variants = analysis["variants"]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    labels = list(variants)
    left.boxplot([v["scores"] for v in variants.values()], tick_labels=labels)
    left.set_title("Final scores (every seat)")
    right.boxplot([v["margins"] for v in variants.values()], tick_labels=labels)
    right.set_title("Winner's margin over the runner-up")
    for axes in (left, right):
        axes.tick_params(axis="x", labelrotation=20)
    return _save(figure, path)


def _balance_length(path: Path, analysis: dict[str, Any]) -> Path:
    variants = analysis["variants"]
    unit = _length_unit(variants)
    figure, axes = plt.subplots(figsize=(8, 4))
    axes.boxplot([v["length"][unit] for v in variants.values()], tick_labels=list(variants))
    axes.set_ylabel(f"{unit} per game")
    axes.set_title("Game length")
    axes.tick_params(axis="x", labelrotation=20)
    return _save(figure, path)

"""Grand Bazaar at the terminal: the price board with its history, the bazaar's stock, every player's
gems and cash, and the final ranking."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from merchantry.engine import seat_label

COLOURS = {"sapphire": "blue", "ruby": "red", "emerald": "green"}
HISTORY_SHOWN = 8  # the latest price changes shown on the board
FINAL_GEM_VALUE = 10  # GB-E1: what every gem held pays at the end, whatever its price

HELP = (
    "On your turn buy and sell single gems ('buy ruby', 'sell emerald') and end with 'done'.\n"
    "You must buy at least one gem per turn, hold at most 4, and may not buy and sell one type in a round.\n"
    "After round 27 every price is back at 10 and each gem you hold pays 10 grands."
)


def gem(name: str) -> str:
    return f"[{COLOURS[name]}]{name}[/]"


def draw(view: dict[str, Any], console: Console) -> None:
    console.rule(
        f"Round {view['round']} of {view['rounds']} — opened by {seat_label(view['opener'])} — "
        f"{len(view['remaining_cards'])} price cards left"
    )
    console.print(price_board(view))
    console.print(holdings_table(view))
    me = view["seat"]
    if view["current"] == me:
        turn = view["turn"]
        done = ", ".join(
            part
            for part in (
                "bought " + ", ".join(turn["bought"]) if turn["bought"] else "",
                "sold " + ", ".join(turn["sold"]) if turn["sold"] else "",
            )
            if part
        )
        console.print(
            f"[bold]Your turn.[/] {('This turn you ' + done + '.') if done else 'Buy at least one gem.'}"
        )


def price_board(view: dict[str, Any]) -> Table:
    history = view["price_history"]
    shown = history[-HISTORY_SHOWN:]
    first_round = len(history) - len(shown)
    table = Table(title="Prices (history: start, then after each round's card)")
    table.add_column("gem")
    for r in range(first_round, len(history)):
        table.add_column("start" if r == 0 else f"r{r}", justify="right")
    table.add_column("in bazaar", justify="right")
    table.add_column("expected move", justify="right")
    remaining = view["remaining_cards"]
    for g, name in enumerate(view["gems"]):
        cells = []
        for r in range(first_round, len(history)):
            price = history[r][g]
            change = price - history[r - 1][g] if r > 0 else 0
            mark = "↑" if change > 0 else "↓" if change < 0 else " "
            cells.append(f"{price}{mark}")
        expected = sum(card[g] for card in remaining) / len(remaining) if remaining else 0.0
        table.add_row(gem(name), *cells, str(view["stock"][g]), f"{expected:+.2f}")
    return table


def holdings_table(view: dict[str, Any]) -> Table:
    table = Table(title="Players (worth: cash + 10 per gem, what the cash-out would give now, GB-E1)")
    table.add_column("seat")
    for name in view["gems"]:
        table.add_column(gem(name), justify="right")
    table.add_column("cash", justify="right")
    table.add_column("worth", justify="right")
    for row in view["holdings"]:
        who = seat_label(row["seat"]) + (" (you)" if row["seat"] == view["seat"] else "")
        if view["current"] == row["seat"]:
            who = f"[bold]▶ {who}[/]"
        worth = row["cash"] + FINAL_GEM_VALUE * sum(row["gems"])
        table.add_row(who, *(str(n) for n in row["gems"]), str(row["cash"]), str(worth))
    return table


def draw_final(view: dict[str, Any], console: Console) -> None:
    table = Table(title="Final ranking (gems cashed out at 10)")
    for column in ("rank", "seat", "grands"):
        table.add_column(column, justify="right")
    order = sorted(range(view["players"]), key=lambda p: view["ranks"][p])
    for p in order:
        who = seat_label(p) + (" (you)" if p == view["seat"] else "")
        table.add_row(str(view["ranks"][p]), who, str(view["holdings"][p]["cash"]))
    console.print(table)

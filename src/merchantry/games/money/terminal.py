"""Money at the terminal: market, bids, seats, your hand by currency, and the final breakdown."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from rich.console import Console
from rich.table import Table

from merchantry.engine import seat_label
from merchantry.games.money.scoring import score_breakdown
from merchantry.terminal import bid_shortcut

COLOURS = {
    "AUD": "yellow",
    "BRL": "green",
    "CAD": "red",
    "EUR": "blue",
    "GBP": "magenta",
    "JPY": "white",
    "USD": "bright_green",
    "COI": "bright_yellow",
    "BLU": "grey50",
}

HELP = (
    "Bidding: 'add EUR20' puts a card into your sealed bid, 'bid' seals it (empty: sit the round out);\n"
    "  shortcut: 'bid EUR20 COIN' adds those cards and seals in one go.\n"
    "Exchange: 'take right' / 'take left' swaps your bid for a market group, 'take P3' for P3's bid,\n"
    "  'keep' takes your own bid back. A currency under 200 loses 100; three 20s or three 30s: +100."
)


def card(code: str) -> str:
    return f"[{COLOURS.get(code[:3], 'white')}]{code}[/]"


def cards(codes: list[str] | None) -> str:
    return " ".join(card(c) for c in codes) if codes else "—"


expand = bid_shortcut  # "bid X Y" adds X and Y, then confirms


def draw(view: dict[str, Any], console: Console) -> None:
    me = view["seat"]
    removed = ", ".join(view["removed_currencies"]) or "none"
    final = " — [bold red]final round[/]" if view["final_round"] else ""
    console.rule(f"Round {view['round']} — {view['phase']} — deck {view['deck']}{final} — removed: {removed}")
    console.print(f"Right group: {cards(view['market']['right'])}")
    console.print(f"Left group:  {cards(view['market']['left'])}")
    console.print(seats_table(view))
    if me is None:  # a spectator (a replay): no hand, no bid of one's own
        return
    console.print(f"Your hand: {hand_by_currency(view['hand'])}")
    if view["phase"] == "bidding":
        console.print(f"Your bid so far: {cards(view['my_bid'])}")
        waiting = ", ".join(seat_label(s) for s in view["to_act"] if s != me)
        if waiting:
            console.print(f"[dim]Also bidding: {waiting}[/]")
    elif view["current"] == me:
        console.print("[bold]Your turn to exchange.[/]")


def seats_table(view: dict[str, Any]) -> Table:
    table = Table(title=None, show_lines=False)
    for column in ("seat", "cards", "known in hand", "bid"):
        table.add_column(column)
    for seat in view["seats"]:
        who = seat_label(seat["seat"]) + (" (you)" if seat["seat"] == view["seat"] else "")
        if view["phase"] == "bidding":
            bid = "sealed" if seat["sealed"] else "thinking…"
        elif seat.get("bid"):
            bid = f"{cards(seat['bid'])} = {seat['bid_value']}" + (" (acted)" if seat["acted"] else "")
        else:
            bid = "—"
        if view["current"] == seat["seat"]:
            who = f"[bold]▶ {who}[/]"
        table.add_row(who, str(seat["hand_size"]), cards(seat["known"]), bid)
    return table


def hand_by_currency(hand: list[str]) -> str:
    groups: dict[str, list[str]] = defaultdict(list)
    for code in hand:
        groups[code[:3]].append(code)
    parts = []
    for cur, codes in groups.items():
        total = sum(int(c[3:]) for c in codes) if cur not in ("COI", "BLU") else None
        suffix = f" ({total})" if total is not None else ""
        parts.append(cards(codes) + suffix)
    return "  ".join(parts)


def draw_final(view: dict[str, Any], console: Console) -> None:
    for number, result in enumerate(view["results"], 1):
        title = f"Game {number} of {view['match']['of']}" if view["match"]["of"] > 1 else "Final scores"
        table = Table(title=title)
        table.add_column("seat")
        table.add_column("hand")
        table.add_column("per currency (total → score)")
        table.add_column("coins", justify="right")
        table.add_column("score", justify="right")
        for seat, hand in enumerate(result["hands"]):
            breakdown = score_breakdown(hand["hand"])
            per_currency = ", ".join(
                f"{c.currency} {c.total}→{c.score}" + (f" ({c.trios} trio)" if c.trios else "")
                for c in breakdown.currencies
            )
            who = seat_label(seat) + (" (you)" if seat == view["seat"] else "")
            table.add_row(who, cards(hand["hand"]), per_currency, str(hand["coins"]), str(hand["total"]))
        console.print(table)
    if view["match"]["of"] > 1:
        console.print(
            "Match totals: " + ", ".join(f"{seat_label(s)} {v:g}" for s, v in enumerate(view["scores"]))
        )

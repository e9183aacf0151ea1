"""Byzanz at the terminal: the lot, the bids, the market, the offer cards, your hand grouped by type,
and every player's hand size and score."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from rich.console import Console
from rich.table import Table

from merchantry.engine import seat_label
from merchantry.terminal import bid_shortcut

COLOURS = {
    "cloth": "magenta",
    "spice": "red",
    "wine": "bright_red",
    "wood": "yellow",
    "grain": "bright_yellow",
    "olive": "green",
    "merchant": "cyan",
}

HELP = (
    "Auction: 'add wine3' puts a card into your bid, 'bid' confirms it (it must beat the highest),\n"
    "  'pass' leaves. Shortcut: 'bid wine3 cloth1' adds those cards and confirms. Merchants cannot be bid.\n"
    "Winning a lot: 'market wood1' puts that lot card into the market.\n"
    "Market: 'take wood' / 'take merchant'.\n"
    "Sell at any prompt: 'sell cloth4 cloth1 merchant' (three of a type, merchants as jokers;\n"
    "  you keep the best). More than 7 cards: 'discard wine1' or sell. At the end: sell, then 'done'."
)


def card(code: str) -> str:
    kind = code.rstrip("0123456789")
    return f"[{COLOURS.get(kind, 'white')}]{code}[/]"


def cards(codes: list[str]) -> str:
    return " ".join(card(c) for c in codes) if codes else "—"


expand = bid_shortcut  # "bid X Y" adds X and Y, then confirms


def draw(view: dict[str, Any], console: Console) -> None:
    console.rule(
        f"Round {view['round']} of {view['rounds']} — {view['phase'].replace('_', ' ')} — deck {view['deck']}"
    )
    stack = " ".join(str(v) for v in reversed(view["offer_stack"])) or "—"
    console.print(f"Offer cards left (top first): {stack}")
    console.print(f"Lot:    {cards(view['lot'])}")
    console.print(f"Market: {cards(view['market'])}")
    console.print(seats_table(view))
    me = view["seat"]
    if me is None:  # a spectator (a replay): no hand of one's own
        return
    console.print(f"Your hand ({len(view['hand'])}): {hand_by_type(view['hand'])}")
    if view["hand_limit_player"] == me:
        console.print("[bold red]You have more than 7 cards: discard or sell.[/]")
    elif view["phase"] == "auction" and view["auction"]["turn"] == me:
        high = view["auction"]["high"]
        console.print(
            f"[bold]Your bid.[/] Highest so far: {high}" if high else "[bold]Your bid.[/] No bid yet."
        )
    elif view["phase"] == "market" and me in view["to_act"]:
        console.print("[bold]Take one type from the market.[/]")


def seats_table(view: dict[str, Any]) -> Table:
    table = Table()
    for column in ("seat", "cards", "known in hand", "bid", "offer", "profits", "score"):
        table.add_column(column)
    auction = view["auction"] or {}
    for seat in view["seats"]:
        p = seat["seat"]
        who = seat_label(p) + (" (you)" if p == view["seat"] else "")
        if p in view["to_act"]:
            who = f"[bold]▶ {who}[/]"
        bid = cards(seat["bid"]) if seat["bid"] else ""
        if seat["offer"]:
            bid = ""  # has won an auction this round
        elif auction and p not in auction["in"]:
            bid = "passed"
        elif auction and auction.get("high_bidder") == p:
            bid += f" = {auction['high']} (high)"
        table.add_row(
            who,
            str(seat["hand_size"]) + (f" ({seat['discarded']} discarded)" if seat["discarded"] else ""),
            cards(seat["known"]),
            bid,
            str(seat["offer"] or ""),
            cards(seat["profits"]),
            f"{seat['score']:g}",
        )
    return table


def hand_by_type(hand: list[str]) -> str:
    groups: dict[str, list[str]] = defaultdict(list)
    for code in hand:
        groups[code.rstrip("0123456789")].append(code)
    return "  ".join(cards(codes) for codes in groups.values()) or "—"


def draw_final(view: dict[str, Any], console: Console) -> None:
    table = Table(title="Final scores (ties: most cards in hand)")
    for column in ("seat", "profit cards", "score", "cards in hand"):
        table.add_column(column)
    for seat in view["seats"]:
        who = seat_label(seat["seat"]) + (" (you)" if seat["seat"] == view["seat"] else "")
        table.add_row(who, cards(seat["profits"]), f"{seat['score']:g}", str(seat["hand_size"]))
    console.print(table)

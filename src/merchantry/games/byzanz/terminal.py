"""Byzanz at the terminal: the lot, the bids, the market, the offer cards, your hand grouped by type,
and every player's hand size and score."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from merchantry.engine import seat_label
from merchantry.games.byzanz.components import HAND_LIMIT
from merchantry.i18n import Translator
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

HELP = Translator("byzanz").terminal("help")  # in English; the terminal shows the player's language


def card(code: str) -> str:
    kind = code.rstrip("0123456789")
    return f"[{COLOURS.get(kind, 'white')}]{code}[/]"


def cards(codes: list[str]) -> str:
    return " ".join(card(c) for c in codes) if codes else "—"


expand = bid_shortcut  # "bid X Y" adds X and Y, then confirms


def draw(view: dict[str, Any], console: Console, tr: Translator | None = None) -> None:
    t = (tr or Translator("byzanz")).terminal
    phase = t(f"phase_{view['phase']}")
    console.rule(t("heading", round=view["round"], rounds=view["rounds"], phase=phase, deck=view["deck"]))
    stack = " ".join(str(v) for v in reversed(view["offer_stack"])) or "—"
    console.print(t("offersLeft", offers=stack))
    console.print(t("lot", cards=cards(view["lot"])))
    console.print(t("market", cards=cards(view["market"])))
    console.print(seats_table(view, t))
    me = view["seat"]
    if me is None:  # a spectator (a replay): no hand of one's own
        return
    console.print(t("yourHand", count=len(view["hand"]), cards=hand_by_type(view["hand"])))
    if view["hand_limit_player"] == me:
        console.print(f"[bold red]{t('overLimit', limit=hand_limit(view))}[/]")
    elif view["phase"] == "auction" and view["auction"]["turn"] == me:
        high = view["auction"]["high"]
        console.print(f"[bold]{t('yourBidHigh', high=high) if high else t('yourBidFirst')}[/]")
    elif view["phase"] == "market" and me in view["to_act"]:
        console.print(f"[bold]{t('takeOne')}[/]")


def hand_limit(view: dict[str, Any]) -> int:
    """BZ-H1's limit, or the variant's where one is in play."""
    limit: int = (view.get("variants") or {}).get("hand_limit", HAND_LIMIT)
    return limit


def seats_table(view: dict[str, Any], t: Callable[..., str]) -> Table:
    table = Table()
    for column in ("seat", "cards", "known", "bid", "offer", "profits", "score"):
        table.add_column(t(f"col_{column}"))
    auction = view["auction"] or {}
    for seat in view["seats"]:
        p = seat["seat"]
        who = seat_label(p) + (f" ({t('you')})" if p == view["seat"] else "")
        if p in view["to_act"]:
            who = f"[bold]▶ {who}[/]"
        bid = cards(seat["bid"]) if seat["bid"] else ""
        if seat["offer"]:
            bid = ""  # has won an auction this round
        elif auction and p not in auction["in"]:
            bid = t("passed")
        elif auction and auction.get("high_bidder") == p:
            bid += f" = {auction['high']} ({t('high')})"
        discarded = f" ({t('discarded', count=seat['discarded'])})" if seat["discarded"] else ""
        table.add_row(
            who,
            str(seat["hand_size"]) + discarded,
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


def draw_final(view: dict[str, Any], console: Console, tr: Translator | None = None) -> None:
    t = (tr or Translator("byzanz")).terminal
    table = Table(title=t("finalTitle"))
    for column in ("seat", "profitCards", "score", "inHand"):
        table.add_column(t(f"col_{column}"))
    for seat in view["seats"]:
        who = seat_label(seat["seat"]) + (f" ({t('you')})" if seat["seat"] == view["seat"] else "")
        table.add_row(who, cards(seat["profits"]), f"{seat['score']:g}", str(seat["hand_size"]))
    console.print(table)

"""Money at the terminal: market, bids, seats, your hand by currency, and the final breakdown."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from rich.console import Console
from rich.table import Table

from merchantry.engine import seat_label
from merchantry.games.money.scoring import score_breakdown
from merchantry.i18n import Translator
from merchantry.terminal import bid_shortcut, titled

COLOURS = {
    "AUD": "yellow",
    "BRL": "green",
    "CAD": "red",
    "EUR": "blue",
    "GBP": "magenta",
    "JPY": "white",
    "USD": "cyan",  # apart from the real's green, as the notes on the page are (teal)
    "COI": "bright_yellow",
    "BLU": "grey50",
}

NBSP = "\u00a0"  # a card's name stays whole where a table wraps its cell ("USD 30", never "USD" / "30")

HELP = Translator("money").terminal("help")  # in English; the terminal shows the player's language


def card(code: str, tr: Translator | None = None) -> str:
    """A card by its name in the player's language, as the log names it ("USD 30", "US-Dollar 30"); the
    moves list beneath the board gives the notation one types ("add USD30")."""
    return f"[{COLOURS.get(code[:3], 'white')}]{(tr.term(code) if tr else code).replace(' ', NBSP)}[/]"


def cards(codes: list[str] | None, tr: Translator | None = None) -> str:
    if not codes:
        return "—"
    return (tr.ui("listSeparator") if tr else " ").join(card(c, tr) for c in codes)


expand = bid_shortcut  # "bid X Y" adds X and Y, then confirms


def draw(view: dict[str, Any], console: Console, tr: Translator | None = None) -> None:
    tr = tr or Translator("money")
    t = tr.terminal
    me = view["seat"]
    removed = ", ".join(tr.term(c) for c in view["removed_currencies"]) or t("none")
    final = f" — [bold red]{t('finalRound')}[/]" if view["final_round"] else ""
    phase = t(f"phase_{view['phase']}")
    console.rule(t("heading", round=view["round"], phase=phase, deck=view["deck"], removed=removed) + final)
    console.print(t("right", cards=cards(view["market"]["right"], tr)))
    console.print(t("left", cards=cards(view["market"]["left"], tr)))
    console.print(seats_table(view, tr))
    if me is None:  # a spectator (a replay): no hand, no bid of one's own
        return
    draw_own(view, console, tr)


def draw_step(view: dict[str, Any], console: Console, tr: Translator | None = None) -> None:
    """The next card of a sealed bid being built: only the hand and the bid so far, which are all the step
    changes (the market and the seats are as they were; 'board' shows them)."""
    draw_own(view, console, tr or Translator("money"))


def draw_own(view: dict[str, Any], console: Console, tr: Translator) -> None:
    t = tr.terminal
    me = view["seat"]
    console.print(t("yourHand", cards=hand_by_currency(view["hand"], view.get("hand_serials"), tr)))
    if view["phase"] == "bidding":
        console.print(t("yourBid", cards=cards(view["my_bid"], tr)))
        waiting = ", ".join(seat_label(s) for s in view["to_act"] if s != me)
        if waiting:
            console.print(f"[dim]{t('alsoBidding', seats=waiting)}[/]")
    elif view["current"] == me:
        console.print(f"[bold]{t('yourExchange')}[/]")


def seats_table(view: dict[str, Any], tr: Translator) -> Table:
    t = tr.terminal
    table = Table(title=None, show_lines=False)
    for column in ("seat", "cards", "known", "bid"):
        table.add_column(t(f"col_{column}"))
    for seat in view["seats"]:
        who = seat_label(seat["seat"]) + (f" ({t('you')})" if seat["seat"] == view["seat"] else "")
        if view["phase"] == "bidding":
            bid = t("sealed") if seat["sealed"] else t("choosing")
        elif seat.get("bid"):
            bid = f"{cards(seat['bid'], tr)} = {seat['bid_value']}" + (
                f" ({t('acted')})" if seat["acted"] else ""
            )
        else:
            bid = "—"
        if view["current"] == seat["seat"]:
            who = f"[bold]▶ {who}[/]"
        table.add_row(who, str(seat["hand_size"]), cards(seat["known"], tr), bid)
    return table


def hand_by_currency(hand: list[str], serials: list[int] | None = None, tr: Translator | None = None) -> str:
    """The hand grouped by currency with each currency's total; each note's serial (MO-C4: it breaks ties
    between equal bids, lowest first) after it as #12."""
    valued = [code for code in hand if code != "BLUFF"]  # bluff cards carry no serial
    numbered: list[int | None] = (
        list(serials) if serials and len(serials) == len(valued) else [None] * len(valued)
    )
    numbered += [None] * (len(hand) - len(valued))
    groups: dict[str, list[tuple[str, int | None]]] = defaultdict(list)
    for code, serial in zip(valued + [c for c in hand if c == "BLUFF"], numbered, strict=True):
        groups[code[:3]].append((code, serial))
    parts = []
    for cur, notes in groups.items():
        total = sum(int(c[3:]) for c, _ in notes) if cur not in ("COI", "BLU") else None
        suffix = f"{NBSP}({total})" if total is not None else ""  # kept beside its last note
        shown = (tr.ui("listSeparator") if tr else " ").join(
            card(c, tr) + (f"[dim]#{n}[/]" if n is not None else "") for c, n in notes
        )
        parts.append(shown + suffix)
    return "  ".join(parts)


def variants_of_scoring(variants: dict[str, Any]) -> dict[str, int]:
    """The scoring variants in play (MO-E3's penalty, MO-E4's trio bonus), for score_breakdown."""
    return {name: int(variants[name]) for name in ("penalty", "trio_bonus") if name in variants}


def draw_final(view: dict[str, Any], console: Console, tr: Translator | None = None) -> None:
    tr = tr or Translator("money")
    t = tr.terminal
    for number, result in enumerate(view["results"], 1):
        of = view["match"]["of"]
        title = t("gameOf", number=number, of=of) if of > 1 else t("finalScores")
        table = titled(title)
        for column in ("seat", "hand", "perCurrency", "coins", "score"):
            table.add_column(t(f"col_{column}"), justify="right" if column in ("coins", "score") else "left")
        variants = view.get("variants") or {}
        for seat, hand in enumerate(result["hands"]):
            breakdown = score_breakdown(hand["hand"], **variants_of_scoring(variants))
            per_currency = ", ".join(
                f"{c.currency} {c.total}→{c.score}" + (f" ({t('trios', count=c.trios)})" if c.trios else "")
                for c in breakdown.currencies
            )
            who = seat_label(seat) + (f" ({t('you')})" if seat == view["seat"] else "")
            table.add_row(who, cards(hand["hand"], tr), per_currency, str(hand["coins"]), str(hand["total"]))
        console.print(table)
    if view["match"]["of"] > 1:
        totals = ", ".join(f"{seat_label(s)} {v:g}" for s, v in enumerate(view["scores"]))
        console.print(t("matchTotals", totals=totals))

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
from merchantry.terminal import bid_shortcut, titled

COLOURS = {
    "cloth": "magenta",
    "spice": "red",
    "wine": "bright_red",
    "wood": "yellow",
    "grain": "bright_yellow",
    "olive": "green",
    "merchant": "cyan",
}

NBSP = "\u00a0"  # a card's name stays whole where a table wraps its cell ("wood 4", never "wood" / "4")

HELP = Translator("byzanz").terminal("help")  # in English; the terminal shows the player's language


def card(code: str, tr: Translator | None = None) -> str:
    """A card by its name in the player's language, as the log names it ("wine 4", "Wein 4"); the moves
    list beneath the board gives the notation one types ("add wine4")."""
    kind = code.rstrip("0123456789")
    return f"[{COLOURS.get(kind, 'white')}]{(tr.term(code) if tr else code).replace(' ', NBSP)}[/]"


def cards(codes: list[str], tr: Translator | None = None) -> str:
    if not codes:
        return "—"
    return (tr.ui("listSeparator") if tr else " ").join(card(c, tr) for c in codes)


expand = bid_shortcut  # "bid X Y" adds X and Y, then confirms


def draw(view: dict[str, Any], console: Console, tr: Translator | None = None) -> None:
    tr = tr or Translator("byzanz")
    t = tr.terminal
    phase = t(f"phase_{view['phase']}")
    console.rule(t("heading", round=view["round"], rounds=view["rounds"], phase=phase, deck=view["deck"]))
    offers = offers_line(view, t)
    if offers:
        console.print(offers)
    console.print(t("lot", cards=cards(view["lot"], tr)))
    console.print(t("market", cards=cards(view["market"], tr)))
    console.print(seats_table(view, tr))
    if view["seat"] is None:  # a spectator (a replay): no hand of one's own
        return
    draw_own(view, console, tr)


def draw_step(view: dict[str, Any], console: Console, tr: Translator | None = None) -> None:
    """The next step of a bid the player is building (or of getting down to the hand limit): only what
    the step changes, the lot and the player's own hand and bid; the board is as it was ('board' shows it)."""
    tr = tr or Translator("byzanz")
    t = tr.terminal
    console.print(t("lot", cards=cards(view["lot"], tr)))
    mine = next(seat for seat in view["seats"] if seat["seat"] == view["seat"])
    if mine["bid"]:
        console.print(t("yourBidSoFar", cards=f"{cards(mine['bid'], tr)} = {bid_total(mine['bid'])}"))
    draw_own(view, console, tr)


def draw_own(view: dict[str, Any], console: Console, tr: Translator) -> None:
    t = tr.terminal
    me = view["seat"]
    console.print(t("yourHand", count=len(view["hand"]), cards=hand_by_type(view["hand"], tr)))
    if view["hand_limit_player"] == me:
        console.print(f"[bold red]{t('overLimit', limit=hand_limit(view))}[/]")
    elif view["phase"] == "auction" and view["auction"]["turn"] == me:
        high = view["auction"]["high"]
        console.print(f"[bold]{t('yourBidHigh', high=high) if high else t('yourBidFirst')}[/]")
    elif view["phase"] == "market" and me in view["to_act"]:
        console.print(f"[bold]{t('takeOne')}[/]")


def offers_line(view: dict[str, Any], t: Callable[..., str]) -> str:
    """The offer card up for auction and the next (offer cards lie face up, highest on top: BZ-S3, BZ-A7),
    with how many are still to come this round; nothing in the market or at the end."""
    to_come = view["offers_to_come"]
    on_block = view["phase"] in ("auction", "lot_choice") and bool(view["lot"]) and bool(view["offer_stack"])
    if not on_block:
        return t("offersToCome", count=len(to_come), next=to_come[0]) if to_come else ""
    up = t("offerUp", offer=view["offer_stack"][-1])
    after = t("offersToCome", count=len(to_come), next=to_come[0]) if to_come else t("offerLast")
    return f"{up} · {after}"


def offer_of(view: dict[str, Any], seat: int) -> int | None:
    """The offer card `seat` holds, or has won: the lot's winner takes it once a lot card is in the market
    (BZ-A7), but it is theirs from the moment the lot is won, and shown so (as the page shows it)."""
    held: int | None = view["seats"][seat]["offer"]
    if held:
        return held
    won = view["phase"] == "lot_choice" and view["chooser"] == seat and view["offer_stack"]
    return int(view["offer_stack"][-1]) if won else None


def hand_limit(view: dict[str, Any]) -> int:
    """BZ-H1's limit, or the variant's where one is in play."""
    limit: int = (view.get("variants") or {}).get("hand_limit", HAND_LIMIT)
    return limit


def bid_total(bid: list[str]) -> int:
    """A bid's worth: the sum of its cards' values (olive2 is 2)."""
    return sum(int(code.lstrip("abcdefghijklmnopqrstuvwxyz") or 0) for code in bid)


def seats_table(view: dict[str, Any], tr: Translator) -> Table:
    t = tr.terminal
    table = Table()
    for column in ("seat", "cards", "known", "bid", "offer", "profits", "score"):
        table.add_column(t(f"col_{column}"))
    auction = view["auction"] or {}
    for seat in view["seats"]:
        p = seat["seat"]
        who = seat_label(p) + (f" ({t('you')})" if p == view["seat"] else "")
        if p in view["to_act"]:
            who = f"[bold]▶ {who}[/]"
        bid = cards(seat["bid"], tr) if seat["bid"] else ""
        if seat["offer"]:
            bid = ""  # has won an auction this round
        elif auction and p not in auction["in"]:
            bid = t("passed")
        elif auction and auction.get("high_bidder") == p:
            bid += f" = {auction['high']} ({t('high')})"
        elif seat["bid"]:  # every bid totalled, your own too, not only the highest
            bid += f" = {bid_total(seat['bid'])}"
        discarded = f" ({t('discarded', count=seat['discarded'])})" if seat["discarded"] else ""
        table.add_row(
            who,
            str(seat["hand_size"]) + discarded,
            cards(seat["known"], tr),
            bid,
            str(offer_of(view, p) or ""),
            cards(seat["profits"], tr),
            f"{seat['score']:g}",
        )
    return table


def hand_by_type(hand: list[str], tr: Translator | None = None) -> str:
    groups: dict[str, list[str]] = defaultdict(list)
    for code in hand:
        groups[code.rstrip("0123456789")].append(code)
    return " · ".join(cards(codes, tr) for codes in groups.values()) or "—"


def draw_final(view: dict[str, Any], console: Console, tr: Translator | None = None) -> None:
    tr = tr or Translator("byzanz")
    t = tr.terminal
    table = titled(t("finalTitle"))
    for column in ("seat", "profitCards", "score", "inHand"):
        table.add_column(t(f"col_{column}"))
    for seat in view["seats"]:
        who = seat_label(seat["seat"]) + (f" ({t('you')})" if seat["seat"] == view["seat"] else "")
        table.add_row(who, cards(seat["profits"], tr), f"{seat['score']:g}", str(seat["hand_size"]))
    console.print(table)
    # BZ-E3: every hand shown at the end, as the page shows them, so the tie-break can be checked
    for seat in view["seats"]:
        if seat.get("hand") is not None:
            who = seat_label(seat["seat"]) + (f" ({t('you')})" if seat["seat"] == view["seat"] else "")
            console.print(t("finalHand", seat=who, count=len(seat["hand"]), cards=cards(seat["hand"], tr)))

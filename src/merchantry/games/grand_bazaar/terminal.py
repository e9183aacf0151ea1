"""Grand Bazaar at the terminal: the price board with its history, the bazaar's stock, every player's
gems and cash, and the final ranking."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from merchantry.engine import seat_label
from merchantry.games.grand_bazaar.components import FINAL_GEM_VALUE
from merchantry.i18n import Translator
from merchantry.terminal import titled

COLOURS = {"sapphire": "blue", "ruby": "red", "emerald": "green"}
HISTORY_SHOWN = 8  # the latest price changes shown on the board


HELP = Translator("grand_bazaar").terminal("help")  # in English; the terminal shows the player's language


def gem(name: str, tr: Translator | None = None) -> str:
    return f"[{COLOURS[name]}]{tr.term(name) if tr else name}[/]"


def draw(view: dict[str, Any], console: Console, tr: Translator | None = None) -> None:
    tr = tr or Translator("grand_bazaar")
    t = tr.terminal
    left = len(view["remaining_cards"])
    console.rule(
        t(
            "heading",
            round=view["round"],
            rounds=view["rounds"],
            opener=seat_label(view["opener"]),
            count=left,
        )
    )
    # as many of the latest price changes as fit beside the gems' names (8 clipped "sapphire" at 80 columns)
    console.print(price_board(view, tr, max(3, min(HISTORY_SHOWN, (console.width - 44) // 6))))
    console.print(holdings_table(view, tr))
    me = view["seat"]
    if me is not None and view["current"] == me:
        turn = view["turn"]
        done = "; ".join(
            part
            for part in (
                t("bought", gems=", ".join(tr.term(g) for g in turn["bought"])) if turn["bought"] else "",
                t("sold", gems=", ".join(tr.term(g) for g in turn["sold"])) if turn["sold"] else "",
            )
            if part
        )
        console.print(f"[bold]{t('yourTurn')}[/] {t('thisTurn', done=done) if done else t('buyOne')}")


def price_board(view: dict[str, Any], tr: Translator | None = None, changes: int = HISTORY_SHOWN) -> Table:
    tr = tr or Translator("grand_bazaar")
    t = tr.terminal
    history = view["price_history"]
    shown = history[-changes:]
    first_round = len(history) - len(shown)
    table = titled(t("pricesTitle"))
    table.add_column(t("col_gem"))
    for r in range(first_round, len(history)):
        table.add_column(t("start") if r == 0 else f"r{r}", justify="right")
    table.add_column(t("col_stock"), justify="right")
    table.add_column(t("col_expected"), justify="right")
    remaining = view["remaining_cards"]
    for g, name in enumerate(view["gems"]):
        cells = []
        for r in range(first_round, len(history)):
            price = history[r][g]
            change = price - history[r - 1][g] if r > 0 else 0
            mark = "↑" if change > 0 else "↓" if change < 0 else " "
            cells.append(f"{price}{mark}")
        expected = sum(card[g] for card in remaining) / len(remaining) if remaining else 0.0
        worth = f"{expected:+.2f}".replace(
            "-", "\u2212"
        )  # a negative figure with the minus sign, not a hyphen
        table.add_row(gem(name, tr), *cells, str(view["stock"][g]), worth)
    return table


def holdings_table(view: dict[str, Any], tr: Translator | None = None) -> Table:
    tr = tr or Translator("grand_bazaar")
    t = tr.terminal
    table = titled(t("playersTitle", value=FINAL_GEM_VALUE))
    table.add_column(t("col_seat"))
    for name in view["gems"]:
        table.add_column(gem(name, tr), justify="right")
    table.add_column(t("col_cash"), justify="right")
    table.add_column(t("col_worth"), justify="right")
    for row in view["holdings"]:
        who = seat_label(row["seat"]) + (f" ({t('you')})" if row["seat"] == view["seat"] else "")
        if view["current"] == row["seat"]:
            who = f"[bold]▶ {who}[/]"
        # the engine's figure, the one the page shows too (once over, the gems are in the cash)
        table.add_row(who, *(str(n) for n in row["gems"]), str(row["cash"]), str(row["worth"]))
    return table


def draw_final(view: dict[str, Any], console: Console, tr: Translator | None = None) -> None:
    t = (tr or Translator("grand_bazaar")).terminal
    table = titled(t("finalTitle", value=FINAL_GEM_VALUE))
    for column in ("rank", "seat", "grands"):
        table.add_column(t(f"col_{column}"), justify="right")
    order = sorted(range(view["players"]), key=lambda p: view["ranks"][p])
    for p in order:
        who = seat_label(p) + (f" ({t('you')})" if p == view["seat"] else "")
        table.add_row(str(view["ranks"][p]), who, str(view["holdings"][p]["cash"]))
    console.print(table)

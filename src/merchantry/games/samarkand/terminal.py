"""Samarkand at the terminal: the map as text (camels per space, goods numbers), the families with
costs, treasuries, camels left and markers, the players, and your hand with each card's worth."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from merchantry.engine import seat_label
from merchantry.games.samarkand.components import MAP

HELP = (
    "On your turn: 'marry <family>' (pay its cost, draw 3 cards, then 'discard <good>' up to twice\n"
    "and 'done'), or 'expand <family> <space>' to place a camel next to its route, then 'camel <space>'\n"
    "for a second one (1 dirham from the family's treasury) or 'done'.\n"
    "The first camel on a goods space opens a sale: whoever holds that card answers 'sell <good>'\n"
    "(3 dirhams; the card then scores nothing) or 'keep'.\n"
    "Spaces are named c<column>r<row>; on the map a space shows its camels' initials, ~~ is water,\n"
    "a number is a goods space, UPPER CASE a start city."
)
CELL = 7  # characters per space on the text map (a label and two 2-letter camel marks)


def letter(family: int) -> str:
    """A family's mark: its initial, or two letters when another family shares the initial."""
    name = MAP.families[family].name
    shared = sum(1 for other in MAP.families if other.name[0] == name[0]) > 1
    return (name[:2] if shared else name[0]).lower()


def cell(view: dict[str, Any], space_index: int) -> Text:
    """One space: its camels' family letters, else what the space is."""
    space = MAP.spaces[space_index]
    camels = view["camels"][space_index]
    colours = [MAP.families[f].colour for f in camels]
    if space.kind == "start":
        label = MAP.families[space.family or 0].name[:3].upper()
    elif space.kind == "goods":
        label = f"{space.good}"
    elif space.kind == "water":
        label = "~~"
    else:
        label = "."
    text = Text(label.ljust(3))
    for family, colour in zip(camels, colours, strict=True):
        text.append(letter(family), style=f"bold {_rich_colour(colour)}")
    text.pad_right(CELL - len(text))
    return text


def _rich_colour(colour: str) -> str:
    return {"brown": "dark_orange3", "pink": "hot_pink", "black": "grey50", "purple": "magenta"}.get(
        colour, colour
    )


def map_text(view: dict[str, Any]) -> Text:
    """The hex map as rows of cells; odd columns sit half a row lower, as drawn in the browser."""
    columns = 1 + max(int(s.id.split("r")[0][1:]) for s in MAP.spaces)
    rows = 1 + max(int(s.id.split("r")[1]) for s in MAP.spaces)
    at = {s.id: s.index for s in MAP.spaces}
    out = Text("     " + "".join(f"c{c}".ljust(CELL) for c in range(columns)) + "\n")
    for row in range(rows):
        for half in (0, 1):
            out.append(f"r{row} ".ljust(5) if half == 0 else "     ")
            for column in range(columns):
                if column % 2 == half and f"c{column}r{row}" in at:
                    out.append_text(cell(view, at[f"c{column}r{row}"]))
                else:
                    out.append(" " * CELL)
            out.append("\n")
    return out


def families_table(view: dict[str, Any]) -> Table:
    table = Table(title="Families (cost to marry, treasury, camels left, tiles on the domain, markers left)")
    for column in ("family", "cost", "treasury", "camels", "tiles", "markers", "married to", "met"):
        table.add_column(column)
    for family in view["families"]:
        name = Text(family["name"], style=f"bold {_rich_colour(family['colour'])}")
        table.add_row(
            name,
            str(family["cost"]),
            str(family["treasury"]),
            str(family["camels_left"]),
            str(family["domain_tiles"]),
            str(family["markers_left"]),
            ", ".join(seat_label(s) for s in family["held_by"]) or "-",
            ", ".join(family["met"]) or "-",
        )
    return table


def players_table(view: dict[str, Any]) -> Table:
    table = Table(title="Players")
    for column in ("seat", "dirhams", "cards", "sold", "tiles", "goods markers", "relationship markers"):
        table.add_column(column)
    for row in view["seats"]:
        who = seat_label(row["seat"]) + (" (you)" if row["seat"] == view["seat"] else "")
        if view["current"] == row["seat"]:
            who = f"▶ {who}"
        table.add_row(
            who,
            str(row["money"]),
            f"{row['hand_size']}",
            ", ".join(str(g) for g in row["sold"]) or "-",
            ", ".join(row["tiles"]) or "-",
            str(row["goods_markers"]),
            str(row["relation_markers"]),
        )
    return table


def draw(view: dict[str, Any], console: Console) -> None:
    console.rule(
        f"Turn {view['turn']} — first player {seat_label(view['first_player'])} — "
        f"deck {view['deck_size']}, discards {view['discard_size']}"
    )
    console.print(map_text(view))
    console.print(families_table(view))
    console.print(players_table(view))
    hand = view["hand"]
    if hand is not None:
        cards = ", ".join(f"{c['good']} {c['name']} ({c['points']} pts now)" for c in hand) or "none"
        console.print(f"Your hand (limit {view['hand_limit']}, sold cards count): {cards}")
    offer = view["offer"]
    if offer:
        answer = "you have answered; the others answer in silence" if offer["answered"] else "answer it"
        console.print(f"[bold]Sale offer:[/] {offer['name']} ({offer['good']}) — {answer}")
    elif view["expanding"] and view["phase"] == "second":
        console.print(f"{view['expanding']} may place a second camel (1 dirham from its treasury) or 'done'.")
    elif view["phase"] == "discard":
        console.print(f"Discard up to {2 - view['discarded']} more card(s), then 'done'.")


def automatic(view: dict[str, Any], legal: list[Any]) -> str | None:
    """A sale offer for a card you do not hold: answered 'keep' for you, as quickly as anyone's (SK-G1)."""
    return "keep" if view["phase"] == "offer" and [str(a) for a in legal] == ["keep"] else None


def draw_final(view: dict[str, Any], console: Console) -> None:
    table = Table(title="Final scores (SK-E2)")
    for column in ("seat", "goods cards", "goods markers", "relationship markers", "dirhams", "total"):
        table.add_column(column, justify="right")
    order = sorted(range(view["players"]), key=lambda p: -view["breakdown"][p]["total"])
    for p in order:
        part = view["breakdown"][p]
        who = seat_label(p) + (" (you)" if p == view["seat"] else "")
        table.add_row(
            who,
            *(str(part[k]) for k in ("goods_cards", "goods_markers", "relation_markers", "money", "total")),
        )
    console.print(table)

"""Samarkand at the terminal: the map as text (camels per space, goods numbers), the families with
costs, treasuries, camels left and markers, the players, and your hand with each card's worth."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from merchantry.engine import seat_label
from merchantry.games.samarkand.components import MAP, MapSpace
from merchantry.i18n import Translator
from merchantry.terminal import NBSP, titled

HELP = Translator("samarkand").terminal("help")  # in English; the terminal shows the player's language
CELL = 7  # characters per space on the text map (a label and two 2-letter camel marks)
MARGIN = 3  # characters of row numbers left of the map (7 rows: a digit and two blanks; 80 columns in all)


def plain(text: str) -> str:
    """A letter as the eye tells it apart at a glance: "Ä" is "A", "É" is "E" (German marked Ägypten "Ä"
    and Arabien "A", two tokens hard to tell apart)."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)).lower()


def marks(names: list[str]) -> list[str]:
    """Each family's mark on its camels, from its name in the reader's language (a German map read "K" for
    Choresmien, from the English Khwarezm): its initial, or, among the names sharing an initial, the initial
    and the letter at the first place where all of those names differ ("Ca" Caucasus and "Ch" China;
    "Co" Choresmien and "Ci" China). static/drawing.js marks them alike."""
    out = []
    for name in names:
        group = [other for other in names if plain(other[:1]) == plain(name[:1])]
        if len(group) == 1:
            out.append(name[:1])
            continue
        at = next(
            (i for i in range(1, min(map(len, group))) if len({plain(g[i]) for g in group}) == len(group)),
            1,
        )
        out.append(name[:1] + name[at : at + 1])
    return out


def letter(family: int, tr: Translator | None = None) -> str:
    """A family's mark in the terminal, lower case (see `marks`)."""
    names = [tr.term(f.name) if tr else f.name for f in MAP.families]
    return marks(names)[family].lower()


def cell(view: dict[str, Any], space_index: int, tr: Translator | None = None) -> Text:
    """One space: its camels' family letters, else what the space is."""
    space = MAP.spaces[space_index]
    camels = view["camels"][space_index]
    colours = [MAP.families[f].colour for f in camels]
    if space.kind == "start":
        name = MAP.families[space.family or 0].name  # a start city: its family's name as the reader reads it
        label = (tr.term(name) if tr else name)[:3].upper()
    elif space.kind == "goods":
        label = f"{space.good}"
    elif space.kind == "water":
        label = "~~"
    else:
        label = "."
    text = Text(label.ljust(3))
    for family, colour in zip(camels, colours, strict=True):
        text.append(letter(family, tr), style=f"bold {_rich_colour(colour)}")
    text.pad_right(CELL - len(text))
    return text


def _rich_colour(colour: str) -> str:
    return {"brown": "dark_orange3", "pink": "hot_pink", "black": "grey50", "purple": "magenta"}.get(
        colour, colour
    )


def map_text(view: dict[str, Any], tr: Translator | None = None) -> Text:
    """The hex map as rows of cells; odd columns sit half a row lower, as drawn in the browser. Column
    letters run along the top, row numbers down the left (even columns) and the right (odd columns), so
    every space's name (D5) can be read off its edges. No line ends in blanks and the right-hand number
    follows the last odd column's space: the map fits 80 columns (the number wrapped onto a line of its
    own there)."""
    grid = {(int(s.x), int(s.y)): s for s in MAP.spaces}
    columns = 1 + max(column for column, _ in grid)
    rows = 1 + max(row for _, row in grid)
    letters = {column: grid_name(grid, column) for column in range(columns)}
    out = Text((" " * MARGIN + "".join(letters[c].ljust(CELL) for c in range(columns))).rstrip() + "\n")
    for row in range(rows):
        for half in (0, 1):
            number = str(row + 1)
            line = Text(number.ljust(MARGIN) if half == 0 else " " * MARGIN)
            for column in range(columns):
                space = grid.get((column, row))
                if column % 2 == half and space is not None:
                    line.append_text(cell(view, space.index, tr))
                else:
                    line.append(" " * CELL)
            line.rstrip()
            if half == 1:
                line.append(" " * max(1, MARGIN + (columns - columns % 2 - 1) * CELL + CELL - len(line)))
                line.append(number)
            out.append_text(line)
            out.append("\n")
    return out


def grid_name(grid: dict[tuple[int, int], MapSpace], column: int) -> str:
    """A column's letter, as its spaces' names begin (D of D5)."""
    space = next(s for (c, _), s in sorted(grid.items()) if c == column)
    return space.id.rstrip("0123456789")


def families_table(view: dict[str, Any], tr: Translator) -> Table:
    t = tr.terminal
    table = titled(t("familiesTitle"))
    for column in ("family", "cost", "treasury", "camels", "tiles", "markers", "married", "met"):
        table.add_column(t(f"col_{column}"))
    for family in view["families"]:
        name = Text(tr.term(family["name"]), style=f"bold {_rich_colour(family['colour'])}")
        table.add_row(
            name,
            str(family["cost"]),
            str(family["treasury"]),
            str(family["camels_left"]),
            str(family["domain_tiles"]),
            str(family["markers_left"]),
            ", ".join(seat_label(s) for s in family["held_by"]) or "-",
            ", ".join(tr.term(f) for f in family["met"]) or "-",
        )
    return table


def players_table(view: dict[str, Any], tr: Translator) -> Table:
    t = tr.terminal
    table = titled(t("playersTitle"))
    for column in (
        "seat",
        "dirhams",
        "cards",
        "sold",
        "heldTiles",
        "goodsMarkers",
        "relationMarkers",
        "worth",
    ):
        table.add_column(t(f"col_{column}"))
    for row in view["seats"]:
        who = seat_label(row["seat"]) + (f" ({t('you')})" if row["seat"] == view["seat"] else "")
        if view["current"] == row["seat"]:
            who = f"▶ {who}"
        table.add_row(
            who,
            str(row["money"]),
            f"{row['hand_size']}",
            ", ".join(str(g) for g in row["sold"]) or "-",
            ", ".join(tr.term(f) for f in row["tiles"]) or "-",
            str(row["goods_markers"]),
            str(row["relation_markers"]),
            worth(row, t),
        )
    return table


def worth(row: dict[str, Any], t: Callable[..., str] | None = None) -> str:
    """SK-E2 as far as the viewer can see: markers and dirhams are public, a hand only to its holder
    (and to everyone at the end); another seat's hidden cards are said to be missing, not guessed."""
    t = t or Translator("samarkand").terminal
    public = row["goods_markers"] + row["relation_markers"] + row["money"]
    if row["hand"] is None:
        return t("worthHidden", points=public, count=row["hand_size"]) if row["hand_size"] else str(public)
    return str(public + sum(card["points"] for card in row["hand"]))


def draw(view: dict[str, Any], console: Console, tr: Translator | None = None) -> None:
    tr = tr or Translator("samarkand")
    t = tr.terminal
    console.rule(
        t(
            "heading",
            turn=view["turn"],
            first=seat_label(view["first_player"]),
            deck=view["deck_size"],
            discards=view["discard_size"],
        )
    )
    console.print(map_text(view, tr))
    console.print(families_table(view, tr))
    console.print(players_table(view, tr))
    draw_own(view, console, tr)


def draw_step(view: dict[str, Any], console: Console, tr: Translator | None = None) -> None:
    """The next step of the player's own turn. Between discards only the hand changes, so only it is shown
    (the map and the tables are as they were; 'board' shows them); before a second camel the map, where
    the first one now stands."""
    tr = tr or Translator("samarkand")
    if view["phase"] == "second":
        console.print(map_text(view, tr))
    draw_own(view, console, tr)


def draw_own(view: dict[str, Any], console: Console, tr: Translator) -> None:
    t = tr.terminal
    hand = view["hand"]
    if hand is not None:
        # each card kept whole on its line ("16 honey (4 points now)", never "16" / "honey ...")
        listed = [
            t("card", good=c["good"], name=tr.term(c["name"]), count=c["points"]).replace(" ", NBSP)
            for c in hand
        ]
        console.print(t("yourHand", limit=view["hand_limit"], cards=", ".join(listed) or t("none")))
    offer = view["offer"]
    mine = view["current"] == view["seat"]
    if offer:
        answer = t("answered") if offer["answered"] else t("answerIt")
        if view["seat"] is None:
            answer = t("holderMaySell")
        good = f"{tr.term(offer['name'])} ({offer['good']})"
        console.print(f"[bold]{t('saleOffer')}[/] {good} — {answer}")
    elif view["expanding"] and view["phase"] == "second" and mine:
        console.print(t("second", family=tr.term(view["expanding"])))
    elif view["phase"] == "discard" and mine:
        console.print(t("discard", count=2 - view["discarded"]))


def automatic(view: dict[str, Any], legal: list[Any]) -> str | None:
    """A sale offer for a card you do not hold: answered 'keep' for you, as quickly as anyone's (SK-G1)."""
    return "keep" if view["phase"] == "offer" and [str(a) for a in legal] == ["keep"] else None


def draw_final(view: dict[str, Any], console: Console, tr: Translator | None = None) -> None:
    t = (tr or Translator("samarkand")).terminal
    table = titled(t("finalTitle"))
    for column in ("seat", "goodsCards", "goodsMarkers", "relationMarkers", "dirhams", "total"):
        table.add_column(t(f"col_{column}"), justify="right")
    order = sorted(range(view["players"]), key=lambda p: -view["breakdown"][p]["total"])
    for p in order:
        part = view["breakdown"][p]
        who = seat_label(p) + (f" ({t('you')})" if p == view["seat"] else "")
        table.add_row(
            who,
            *(str(part[k]) for k in ("goods_cards", "goods_markers", "relation_markers", "money", "total")),
        )
    console.print(table)
    final_hands(view, console, tr or Translator("samarkand"))


def final_hands(view: dict[str, Any], console: Console, tr: Translator) -> None:
    """SK-E2: every hand laid face up at the end, each card with what it scored, as the page shows them, so
    the goods cards' column can be checked: a hand's points add up to it."""
    t = tr.terminal
    console.print(t("finalHandsTitle"))
    for row in view["seats"]:
        if row["hand"] is None:
            continue
        who = seat_label(row["seat"]) + (f" ({t('you')})" if row["seat"] == view["seat"] else "")
        listed = [f"{c['good']} {tr.term(c['name'])} ({c['points']})".replace(" ", NBSP) for c in row["hand"]]
        points = sum(card["points"] for card in row["hand"])
        console.print(t("finalHand", seat=who, cards=", ".join(listed) or t("none"), points=points))

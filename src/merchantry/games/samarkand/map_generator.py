"""How the project's own Samarkand map (data/map.json) was made (SK-C5). Not used when playing.

The printed board's layout is not in the rulebook, so the project draws its own: a hex grid of `columns`
from west (Byzantium, Egypt) to east (China, India), `rows` from the top edge to the bottom edge. Each
family's start city lies next to its domain: five on the top row, five on the bottom row, spread west to
east. Water is a short inland sea in the middle (camels cross it side by side, SK-R1). The 33 goods spaces
are spread over the land by a seeded shuffle that keeps them off the start cities and their neighbours.

    python -m merchantry.games.samarkand.map_generator > map.json
    mv map.json src/merchantry/games/samarkand/data/

The size (columns x rows) is the knob for game length; see docs/samarkand.md for how it was chosen.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

COLUMNS, ROWS = 11, 7  # tuned by benchmarks/tune_samarkand_map.py: see docs/samarkand.md
SEED = 2010  # the game's year; any seed gives a valid map

# west to east; (name, colour, marriage cost): dearer in the middle, cheapest at the ends (SK-C5)
TOP = [
    ("Byzantium", "purple", 3),
    ("Caucasus", "white", 4),
    ("Khwarezm", "orange", 6),
    ("Sogdiana", "yellow", 5),
    ("China", "black", 3),
]
BOTTOM = [
    ("Egypt", "brown", 3),
    ("Levant", "red", 4),
    ("Arabia", "green", 5),
    ("Persia", "blue", 6),
    ("India", "pink", 4),
]
GOODS = [
    "silk", "linen", "cotton", "wool", "carpets", "spices", "pepper", "saffron", "cinnamon", "tea",
    "salt", "dates", "figs", "olives", "wine", "honey", "incense", "myrrh", "amber", "pearls",
    "jade", "diamond", "rubies", "emeralds", "gold", "silver", "copper", "iron", "porcelain", "glass",
    "paper", "horses", "camels",
]  # fmt: skip


def space_id(column: int, row: int) -> str:
    """A space's name as a person reads it off the map's edges: its column's letter (A is the west edge)
    and its row's number (1 is the top edge), as on a chess board: C5."""
    return f"{column_letters(column)}{row + 1}"


def column_letters(column: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA: letters as spreadsheets count, for maps wider than 26 columns."""
    letters = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def former_id(column: int, row: int) -> str:
    """What records written before spaces had readable names call the space: c<column>r<row>, from 0."""
    return f"c{column}r{row}"


def start_columns(columns: int) -> list[int]:
    """Five start cities per edge, spread evenly from west to east."""
    return [round(i * (columns - 1) / 4) for i in range(5)]


def water(columns: int, rows: int) -> list[tuple[int, int]]:
    """An inland sea of 5 spaces in the middle of the map."""
    c, r = columns // 2, rows // 2
    return [(c - 1, r), (c, r), (c + 1, r), (c, r - 1), (c, r + 1)]


def neighbours(column: int, row: int, columns: int = COLUMNS, rows: int = ROWS) -> list[tuple[int, int]]:
    """Hex grid, flat-topped, odd columns shifted down half a space."""
    shift = column % 2
    candidates = [
        (column, row - 1),
        (column, row + 1),
        (column - 1, row - 1 + shift),
        (column - 1, row + shift),
        (column + 1, row - 1 + shift),
        (column + 1, row + shift),
    ]
    return [(c, r) for c, r in candidates if 0 <= c < columns and 0 <= r < rows]


def build(columns: int = COLUMNS, rows: int = ROWS) -> dict[str, Any]:
    start_at = start_columns(columns)
    sea = water(columns, rows)
    starts = {(c, 0): family for c, family in zip(start_at, TOP, strict=True)}
    starts |= {(c, rows - 1): family for c, family in zip(start_at, BOTTOM, strict=True)}
    near_start = {n for place in starts for n in neighbours(*place, columns, rows)} | set(starts)
    land = [(c, r) for c in range(columns) for r in range(rows) if (c, r) not in near_start | set(sea)]
    rng = random.Random(SEED)
    goods_places = rng.sample(land, len(GOODS))
    goods_at = {place: number for number, place in enumerate(goods_places, 1)}
    spaces = []
    for column in range(columns):
        for row in range(rows):
            place = (column, row)
            space: dict[str, Any] = {
                "id": space_id(column, row),
                "aliases": [former_id(column, row)],
                "x": column,
                "y": row + (0.5 if column % 2 else 0.0),
                "kind": "land",
                "adjacent": [space_id(*n) for n in neighbours(column, row, columns, rows)],
            }
            if place in sea:
                space["kind"] = "water"
            elif place in starts:
                space["kind"] = "start"
                space["family"] = starts[place][0]
            elif place in goods_at:
                space["kind"] = "goods"
                space["good"] = goods_at[place]
            spaces.append(space)
    families = [
        {
            "name": name,
            "colour": colour,
            "cost": cost,
            "edge": edge,
            "start": space_id(column, 0 if edge == "top" else rows - 1),
        }
        for edge, row_families in (("top", TOP), ("bottom", BOTTOM))
        for column, (name, colour, cost) in zip(start_at, row_families, strict=True)
    ]
    return {
        "title": "Merchantry's own Samarkand map (not the printed board)",
        "note": "Made by merchantry.games.samarkand.map_generator; replace with a transcription of the "
        "printed board in the same format without code changes (SK-C5).",
        "families": families,
        "goods": [{"number": n, "name": name} for n, name in enumerate(GOODS, 1)],
        "spaces": spaces,
    }


def main(argv: list[str]) -> None:
    """`[columns rows]`: the default size is the shipped map's; other sizes are for tuning."""
    columns, rows = (int(argv[0]), int(argv[1])) if argv else (COLUMNS, ROWS)
    json.dump(build(columns, rows), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Samarkand's components: the map (SK-C1, SK-C5), its families (SK-C2) and goods (SK-C3), loaded from
`data/map.json` and checked on load, so a replacement map (a transcription of the printed board) needs no
code changes and a broken one is refused with a clear reason."""

from __future__ import annotations

import json
import os
from collections import deque
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

KINDS: Final = ("land", "goods", "water", "start")
NUM_GOODS: Final = 33  # SK-C3
NUM_FAMILIES: Final = 10  # SK-C2
DIAMOND: Final = 22  # SK-C5: good 22 is Diamond


class MapError(ValueError):
    """A map file that does not describe a Samarkand board."""


@dataclass(frozen=True)
class MapSpace:
    index: int
    id: str
    kind: str  # land | goods | water | start
    x: float
    y: float
    good: int | None  # 1..33 on a goods space
    family: int | None  # the family whose start city this is
    adjacent: tuple[int, ...]
    aliases: tuple[str, ...] = ()  # other names the notation accepts (what older records call it)


@dataclass(frozen=True)
class MerchantFamily:
    index: int
    name: str
    colour: str
    cost: int  # SK-T1: marriage cost in dirhams
    edge: str  # top | bottom: where its domain is (SK-C2)
    start: int  # its start space


@dataclass(frozen=True)
class SamarkandMap:
    title: str
    spaces: tuple[MapSpace, ...]
    families: tuple[MerchantFamily, ...]
    goods: tuple[str, ...]  # goods[n - 1] is the name of good n
    goods_space: tuple[int, ...]  # goods_space[n - 1] is the space of good n


MAP_VARIABLE: Final = (
    "MERCHANTRY_SAMARKAND_MAP"  # a path: play on another map (a transcription, a tuning trial)
)


def load_map(text: str | None = None) -> SamarkandMap:
    """The map in `text` (JSON), else the file named by $MERCHANTRY_SAMARKAND_MAP, else the shipped map;
    raises MapError saying what is wrong."""
    if text is None and os.environ.get(MAP_VARIABLE):
        path = os.environ[MAP_VARIABLE]
        try:
            with open(path, encoding="utf-8") as file:
                text = file.read()
        except OSError as exc:
            raise MapError(f"cannot read the map {path} named by {MAP_VARIABLE}: {exc.strerror}") from None
    if text is None:
        text = resources.files(__package__).joinpath("data", "map.json").read_text(encoding="utf-8")
    try:
        data = json.loads(text)
        return _build(data)
    except MapError:
        raise
    except (ValueError, KeyError, TypeError) as exc:
        raise MapError(f"not a Samarkand map: {type(exc).__name__} {exc}") from None


def _build(data: dict[str, Any]) -> SamarkandMap:
    raw_spaces = data["spaces"]
    index = {space["id"]: i for i, space in enumerate(raw_spaces)}
    if len(index) != len(raw_spaces):
        raise MapError("two spaces share an id")
    names = [name.lower() for space in raw_spaces for name in [space["id"], *space.get("aliases", [])]]
    if len(set(names)) != len(names):
        raise MapError("two spaces share a name (ids and aliases, in any case)")
    families = [
        MerchantFamily(
            i, str(f["name"]), str(f["colour"]), int(f["cost"]), str(f["edge"]), _space(index, f["start"])
        )
        for i, f in enumerate(data["families"])
    ]
    family_of = {family.name: family.index for family in families}
    spaces = []
    for i, raw in enumerate(raw_spaces):
        kind = raw["kind"]
        if kind not in KINDS:
            raise MapError(f"space {raw['id']}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
        family = raw.get("family")
        if family is not None and family not in family_of:
            raise MapError(f"space {raw['id']}: no family {family!r}")
        spaces.append(
            MapSpace(
                i,
                str(raw["id"]),
                kind,
                float(raw["x"]),
                float(raw["y"]),
                int(raw["good"]) if kind == "goods" else None,
                family_of[family] if family is not None else None,
                tuple(_space(index, n) for n in raw["adjacent"]),
                tuple(str(alias) for alias in raw.get("aliases", [])),
            )
        )
    goods = tuple(str(g["name"]) for g in sorted(data["goods"], key=lambda g: int(g["number"])))
    numbers = sorted(space.good for space in spaces if space.good is not None)
    if numbers != list(range(1, NUM_GOODS + 1)) or len(goods) != NUM_GOODS:
        raise MapError(f"the goods spaces must show goods 1..{NUM_GOODS}, each exactly once")
    goods_space = tuple(next(s.index for s in spaces if s.good == n) for n in range(1, NUM_GOODS + 1))
    board = SamarkandMap(str(data["title"]), tuple(spaces), tuple(families), goods, goods_space)
    _check(board)
    return board


def _space(index: dict[str, int], space_id: str) -> int:
    if space_id not in index:
        raise MapError(f"no space {space_id!r}")
    return index[space_id]


def _check(board: SamarkandMap) -> None:
    """SK-C1, SK-C2, SK-C5: what every map must be, the printed board or the project's own."""
    spaces, families = board.spaces, board.families
    if len(families) != NUM_FAMILIES:
        raise MapError(f"a map has {NUM_FAMILIES} families, not {len(families)}")
    if sorted(f.edge for f in families) != ["bottom"] * 5 + ["top"] * 5:
        raise MapError("five family domains lie on the top edge and five on the bottom edge")
    if any(not 3 <= f.cost <= 6 for f in families):
        raise MapError("marriage costs are 3 to 6 dirhams")
    for family in families:
        start = spaces[family.start]
        if start.kind != "start" or start.family != family.index:
            raise MapError(f"{family.name}'s start must be a start space marked with that family")
    if sum(1 for s in spaces if s.kind == "start") != NUM_FAMILIES:
        raise MapError(f"a map has exactly {NUM_FAMILIES} start spaces")
    for space in spaces:
        if space.index in space.adjacent or len(set(space.adjacent)) != len(space.adjacent):
            raise MapError(f"space {space.id} lists itself or a neighbour twice")
        for other in space.adjacent:
            if space.index not in spaces[other].adjacent:
                raise MapError(f"{space.id} is next to {spaces[other].id} but not the other way round")
    reached = _reachable(board, families[0].start)
    if len(reached) != len(spaces):
        lost = next(s.id for s in spaces if s.index not in reached)
        raise MapError(f"the map is not connected: {lost} cannot be reached from the start cities")


def _reachable(board: SamarkandMap, start: int) -> set[int]:
    seen, queue = {start}, deque([start])
    while queue:
        for other in board.spaces[queue.popleft()].adjacent:
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return seen


MAP: Final = load_map()


# --- the rules' numbers (SK-C2, SK-S3, SK-S4, SK-T2, SK-G1, SK-R2, SK-E2) ------------------------------

CAMELS_PER_FAMILY: Final = 12  # SK-C2
TILES_PER_FAMILY: Final = 2  # SK-C2; one on the domain and one in the bag with 2 players (SK-2P1)
MARKERS_PER_FAMILY: Final = 5  # SK-C2: 4 grey under 1 dark green
START_MONEY: Final = 10  # SK-S3
START_HAND: Final = 2  # SK-S2
HAND_LIMIT: Final = {2: 10, 3: 10, 4: 7, 5: 6}  # SK-S4, SK-2P1
DRAW_ON_MARRIAGE: Final = 3  # SK-T2
MAX_DISCARDS: Final = 2  # SK-T2
SALE_PRICE: Final = 3  # SK-G1
ACTIVE_BONUS, PASSIVE_BONUS = 3, 1  # SK-R2
OWN_CAMEL_POINTS, OTHER_CAMEL_POINTS = 4, 1  # SK-E2

# the map as flat tables for the rules' inner loops (principle 4: shared, never copied)
ADJACENT: Final[tuple[tuple[int, ...], ...]] = tuple(space.adjacent for space in MAP.spaces)
IS_WATER: Final[tuple[bool, ...]] = tuple(space.kind == "water" for space in MAP.spaces)
GOOD_AT: Final[tuple[int, ...]] = tuple(space.good or 0 for space in MAP.spaces)  # 0: not a goods space

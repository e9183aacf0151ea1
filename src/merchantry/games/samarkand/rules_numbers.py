"""Samarkand's numbers for its rules page, from the map file (data/map.json: families, marriage costs) and
the rules' numbers in components.py (SK-C2, SK-S2..SK-S4, SK-T2, SK-G1, SK-R2, SK-E2)."""

from __future__ import annotations

from merchantry.games.samarkand.components import (
    ACTIVE_BONUS,
    CAMELS_PER_FAMILY,
    DRAW_ON_MARRIAGE,
    HAND_LIMIT,
    MAP,
    MARKERS_PER_FAMILY,
    MAX_DISCARDS,
    OTHER_CAMEL_POINTS,
    OWN_CAMEL_POINTS,
    PASSIVE_BONUS,
    SALE_PRICE,
    START_HAND,
    START_MONEY,
    TILES_PER_FAMILY,
)
from merchantry.i18n import Translator
from merchantry.rules_page import table


def numbers(language: str) -> dict[str, str]:
    tr = Translator("samarkand", language)
    return {"marriage-costs": marriage_costs(tr), "numbers": rule_numbers(tr), "goods": goods(tr)}


def marriage_costs(tr: Translator) -> str:
    header = [tr.rules("family"), tr.rules("edge"), tr.rules("startCity"), tr.rules("cost")]
    rows = [
        [tr.term(f.name), tr.rules(f"edge_{f.edge}"), MAP.spaces[f.start].id, f.cost]
        for f in sorted(MAP.families, key=lambda f: (f.cost, f.name))
    ]
    return table(tr.rules("costsCaption"), header, rows, "samarkand-costs")


def rule_numbers(tr: Translator) -> str:
    limits = ", ".join(tr.rules("limitFor", players=p, limit=n) for p, n in sorted(HAND_LIMIT.items()))
    rows: list[list[object]] = [
        [tr.rules("startMoney"), START_MONEY],
        [tr.rules("startHand"), START_HAND],
        [tr.rules("handLimit"), limits],
        [tr.rules("camels"), CAMELS_PER_FAMILY],
        [tr.rules("tiles"), TILES_PER_FAMILY],
        [tr.rules("markers"), MARKERS_PER_FAMILY],
        [tr.rules("draw"), DRAW_ON_MARRIAGE],
        [tr.rules("discards"), MAX_DISCARDS],
        [tr.rules("sale"), SALE_PRICE],
        [tr.rules("bonus"), f"{ACTIVE_BONUS} / {PASSIVE_BONUS}"],
        [tr.rules("cardPoints"), f"{OWN_CAMEL_POINTS} / {OTHER_CAMEL_POINTS}"],
    ]
    return table(
        tr.rules("numbersCaption"), [tr.rules("what"), tr.rules("number")], rows, "samarkand-numbers"
    )


def goods(tr: Translator) -> str:
    at = {space.good: space.id for space in MAP.spaces if space.good}
    rows = [[n, tr.term(name), at[n]] for n, name in enumerate(MAP.goods, 1)]
    header = ["#", tr.rules("good"), tr.rules("space")]
    return table(tr.rules("goodsCaption"), header, rows, "samarkand-goods")

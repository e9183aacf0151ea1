"""Byzanz's page (games/byzanz/static): each goods type's card colour is plainly apart from every other and
from the page, and its value reads on it (spice and wine were two pinks a newcomer mistook, issue 32)."""

from __future__ import annotations

import re

from merchantry import games
from tests.games.test_money_page import apart, contrast, looks_apart, page_colours

GOODS = ("cloth", "spice", "wine", "wood", "grain", "olive", "merchant")


def goods_colours() -> dict[str, str]:
    css = (games.package("byzanz").folder / "static" / "drawing.css").read_text(encoding="utf-8")
    return dict(re.findall(r"\.g-(\w+)\s*\{\s*background:\s*(#[0-9a-f]{6})", css))


def test_no_two_goods_look_alike():
    colours = goods_colours()
    assert set(GOODS) <= set(colours), "a goods type without its colour"
    for i, a in enumerate(GOODS):
        for b in GOODS[i + 1 :]:
            distance = looks_apart(colours[a], colours[b])
            assert distance >= 15, f"{a} and {b} look alike (ΔE00 {distance:.1f})"


def test_every_goods_colour_stands_apart_from_the_page_and_its_value_reads_on_it():
    page, colours = page_colours(), goods_colours()
    for good in GOODS:
        for ground in ("bg", "panel"):
            distance = apart(colours[good], page[ground])
            assert distance >= 12, f"{good} is too close to --{ground} (ΔE {distance:.1f})"
        assert contrast(colours[good], "#222222") >= 7, f"{good}: its value does not read on it"

"""Money's page (games/money/static): each currency's banknote colour is plainly apart from the page it lies
on and its printed value reads on it (the yen's near-white #f2f2f2 was hard to see on the page's cream)."""

from __future__ import annotations

import re

from merchantry import games
from merchantry.server.app import STATIC

CURRENCIES = ("AUD", "BRL", "CAD", "EUR", "GBP", "JPY", "USD")


def rgb(colour: str) -> tuple[float, float, float]:
    digits = colour.lstrip("#")
    return tuple(int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance."""
    channels = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb(colour)]
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65): distances in it follow how far apart colours look."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb(colour)]
    r, g, b = linear
    xyz = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def apart(a: str, b: str) -> float:
    """ΔE*76: about 2.3 is the least difference seen; two colours read as different ones well above 10."""
    return sum((x - y) ** 2 for x, y in zip(lab(a), lab(b), strict=True)) ** 0.5


def page_colours() -> dict[str, str]:
    style = (STATIC / "style.css").read_text(encoding="utf-8")
    return dict(re.findall(r"--(\w+):\s*(#[0-9a-f]{6})", style))


def note_colours() -> dict[str, str]:
    css = (games.package("money").folder / "static" / "drawing.css").read_text(encoding="utf-8")
    return dict(re.findall(r"\.c-(\w+)\s*\{\s*background:\s*(#[0-9a-f]{6})", css))


def test_every_banknote_colour_stands_apart_from_the_page_and_its_value_reads_on_it():
    page, notes = page_colours(), note_colours()
    assert set(CURRENCIES) <= set(notes), "a currency without its colour"
    for currency in CURRENCIES:
        for ground in ("bg", "panel"):  # the page, and the boxes the market, seats and hand are drawn in
            distance = apart(notes[currency], page[ground])
            assert distance >= 12, f"{currency} is too close to --{ground} (ΔE {distance:.1f})"
        assert contrast(notes[currency], "#222222") >= 7, f"{currency}: its value does not read on it"


def test_no_two_currencies_look_alike():
    notes = note_colours()
    for i, a in enumerate(CURRENCIES):
        for b in CURRENCIES[i + 1 :]:
            assert apart(notes[a], notes[b]) >= 10, f"{a} and {b} look alike"

"""Money's page (games/money/static): each currency's banknote colour is plainly apart from the page it lies
on and its printed value reads on it (the yen's near-white #f2f2f2 was hard to see on the page's cream)."""

from __future__ import annotations

import math
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


def looks_apart(a: str, b: str) -> float:
    """CIEDE2000 (ΔE00): ΔE*76 overstates differences between light, saturated colours (a pale yellow and a
    gold, two pinks: 18-24 apart by ΔE*76, yet mistaken for each other); ΔE00 weighs them as eyes do."""
    return ciede2000(lab(a), lab(b))


def ciede2000(one: tuple[float, float, float], two: tuple[float, float, float]) -> float:
    """ΔE00 of two CIE L*a*b* colours (Sharma, Wu and Dalal 2005)."""
    (l1, a1, b1), (l2, a2, b2) = one, two
    chroma = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(chroma**7 / (chroma**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = math.degrees(math.atan2(b1, a1)) % 360, math.degrees(math.atan2(b2, a2)) % 360
    turn = h2 - h1 if abs(h2 - h1) <= 180 else h2 - h1 - 360 if h2 > h1 else h2 - h1 + 360
    d_hue = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(turn / 2)) if c1 * c2 else 0.0
    mean_l, mean_c = (l1 + l2) / 2, (c1 + c2) / 2
    if not c1 * c2:
        mean_h = h1 + h2
    elif abs(h1 - h2) <= 180:
        mean_h = (h1 + h2) / 2
    else:
        mean_h = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    cos = lambda degrees: math.cos(math.radians(degrees))  # noqa: E731
    t = 1 - 0.17 * cos(mean_h - 30) + 0.24 * cos(2 * mean_h) + 0.32 * cos(3 * mean_h + 6)
    t -= 0.20 * cos(4 * mean_h - 63)
    s_l = 1 + 0.015 * (mean_l - 50) ** 2 / math.sqrt(20 + (mean_l - 50) ** 2)
    s_c, s_h = 1 + 0.045 * mean_c, 1 + 0.015 * mean_c * t
    r_c = 2 * math.sqrt(mean_c**7 / (mean_c**7 + 25**7))
    r_t = -math.sin(math.radians(60 * math.exp(-(((mean_h - 275) / 25) ** 2)))) * r_c
    dl, dc, dh = (l2 - l1) / s_l, (c2 - c1) / s_c, d_hue / s_h
    return math.sqrt(dl**2 + dc**2 + dh**2 + r_t * dc * dh)


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
    """Every pair of Money's notes (and the coin) is plainly apart by CIEDE2000, as eyes weigh colours: the
    real's and the dollar's greens (ΔE00 6.6) and the euro's blue and the yen's blue-grey (10.0) were
    mistaken for each other by a newcomer, though ΔE*76 had them 10.9 and 15.5 apart."""
    notes = note_colours()
    kinds = [*CURRENCIES, "COI"]
    for i, a in enumerate(kinds):
        for b in kinds[i + 1 :]:
            assert apart(notes[a], notes[b]) >= 10, f"{a} and {b} look alike"
            distance = looks_apart(notes[a], notes[b])
            assert distance >= 15, f"{a} and {b} look alike (ΔE00 {distance:.1f})"


def test_ciede2000_gives_the_published_differences():
    # pairs 1, 7, 17 and 25 of Sharma, Wu and Dalal's test data
    pairs = [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ]
    for one, two, published in pairs:
        assert abs(ciede2000(one, two) - published) < 1e-4, (one, two)


def test_the_coin_looks_apart_from_every_banknote_and_its_value_reads_on_it():
    # the AUD's pale yellow and the coin's yellow were mistaken for each other on the end table (issue 32)
    notes = note_colours()
    for currency in CURRENCIES:
        distance = looks_apart(notes["COI"], notes[currency])
        assert distance >= 15, f"the coin and {currency} look alike (ΔE00 {distance:.1f})"
    assert contrast(notes["COI"], "#222222") >= 7, "the coin's value does not read on it"

"""The end of every game in chromium: the final table's figures are the engine's `scores()`, every seat's
hand is shown (so the scores can be checked), nothing of the running game is left over, and the end fits a
phone. Each game is played by quick bots to its end, then looked at as a spectator sees it (the strictest
view: what any seat sees is at least that)."""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)
from __future__ import annotations

import json
import re
from collections import Counter

import httpx

from merchantry import records
from tests.server.live_tables import finished_bot_table
from tests.server.test_browser import browser, live_server, shot  # noqa: F401
from tests.server.test_browser import pytestmark as browser_needed
from tests.server.test_browser_answer_banner import updates_rewritten

pytestmark = browser_needed
WIDTHS = (1100, 390)  # a desktop, then a phone

SHORT = {"money": {"max_rounds": 6}}  # Money's digital safeguard ends it after a few rounds


def finished_bot_game(base: str, game: str, players: int = 3):
    """A table of greedy bots played to its end; the engine's final state, rebuilt from its record."""
    table_id = finished_bot_table(base, game, ["greedy"] * players, SHORT.get(game), seconds=150)
    state = records.replay(httpx.get(f"{base}/api/tables/{table_id}/record").json())
    assert state.is_over()
    return table_id, state


def seat_of(text: str) -> int:
    return int(re.search(r"\bP(\d)\b", text).group(1)) - 1


def column(page, table: str, heading: str) -> dict[int, str]:
    """A final table's column by its heading, keyed by the seat each row names."""
    headings = page.locator(f"{table} thead th").all_inner_texts()
    index = headings.index(heading)
    figures = {}
    for row in page.locator(f"{table} tbody tr").all():
        cells = row.locator("td, th").all_inner_texts()
        figures[seat_of(" ".join(cells))] = cells[index]
    return figures


def as_number(text: str) -> float:
    return float(text.split("=")[-1].strip())


def open_the_end(browser, base: str, table_id: str, width: int):
    page = browser.new_page(viewport={"width": width, "height": 844 if width < 500 else 900})
    page.goto(f"{base}/table/{table_id}")
    page.wait_for_selector(".banner:has-text('Winner')")
    return page


def fits(page, width: int) -> None:
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width + 1, f"the end screen is {scroll_width} px wide on a {width} px screen"


def test_money_end_table_is_the_engines_scores_and_every_hand_is_shown(live_server, browser):
    table_id, state = finished_bot_game(live_server, "money")
    for width in WIDTHS:
        page = open_the_end(browser, live_server, table_id, width)
        page.wait_for_selector(".money table.scores")
        totals = column(page, ".money table.scores", "Total")
        assert {s: as_number(v) for s, v in totals.items()} == dict(enumerate(state.scores()))
        scores = state.scores()  # each seat's place, as Byzanz's table has it (equal totals share one)
        ranks = {s: int(v) for s, v in column(page, ".money table.scores", "Rank").items()}
        assert ranks == {s: 1 + sum(other > mine for other in scores) for s, mine in enumerate(scores)}
        assert list(ranks.values()) == sorted(ranks.values()), "best first"
        final = state.view(None)["results"][-1]["hands"]
        worked = column(page, ".money table.scores", "Currencies: total → score")
        for s, hand in enumerate(final):  # each currency worked out step by step (MO-E3, MO-E4)
            for currency, c in hand["currencies"].items():
                said = re.search(rf"{currency} {c['total']}( [^\n]*?[=→] (\d+))?(\n|$)", worked[s])
                assert said and int(said.group(2) or c["total"]) == c["score"], (currency, worked[s])
                if c["total"] < 200:  # the rules' "loses 100, never below 0", not "BRL 90 − 90" (tenth pass)
                    assert said.group(1).startswith(" − 100 (under 200)"), (currency, worked[s])
        # the coins' column holds their points (10 each, MO-E5) and says so ("Coins" over 20 read as 20 coins)
        coins = column(page, ".money table.scores", "Coin points (10 each)")
        assert {s: int(v) for s, v in coins.items()} == {s: hand["coins"] for s, hand in enumerate(final)}
        for s in range(state.num_players):
            shown = page.locator(f".money .seat[data-seat='{s}'] .final-hand [data-card]")
            codes = shown.evaluate_all("nodes => nodes.map(n => n.dataset.card)")
            assert Counter(codes) == Counter(final[s]["hand"]), f"P{s + 1}'s whole hand is shown"
            count = page.inner_text(f".money .seat[data-seat='{s}'] [title]:has-text('cards')")
            counted = state.view(None)["seats"][s]["hand_size"]
            assert int(count.split()[0]) == len(codes) == counted, "the count is the cards shown, bluff too"
        fits(page, width)
        shot(page, f"20-money-end-{width}")


def test_byzanz_end_table_is_the_engines_scores_every_hand_shows_and_no_offers_are_to_come(
    live_server,
    browser,
):
    table_id, state = finished_bot_game(live_server, "byzanz")
    for width in WIDTHS:
        page = open_the_end(browser, live_server, table_id, width)
        page.wait_for_selector("table.bz-final")
        points = column(page, "table.bz-final", "Profit points")
        in_hand = column(page, "table.bz-final", "Cards in hand (tie-break)")
        public = state.view(None)
        assert {s: as_number(v) for s, v in points.items()} == dict(enumerate(state.scores()))
        assert {s: int(v) for s, v in in_hand.items()} == {i["seat"]: i["hand_size"] for i in public["seats"]}
        for info in public["seats"]:
            seat_box = page.locator(".byzanz .seats .seat").nth(info["seat"])
            codes = seat_box.locator(".bz-final-hand [data-card]").evaluate_all(
                "ns => ns.map(n => n.dataset.card)"
            )
            assert Counter(codes) == Counter(info["hand"]), f"P{info['seat'] + 1}'s whole hand is shown"
        assert "offer cards to come" not in page.inner_text(".byzanz .status-line")
        # "(27 points)" stays on the line of its label, never alone after a long row of cards
        apart = page.locator(".byzanz .bz-points").evaluate_all(
            "ns => ns.map(n => n.getBoundingClientRect().top - n.parentElement.getBoundingClientRect().top)"
        )
        assert apart and max(apart) < 8
        # every seat's cards under their label, one card or many: the seats side by side line up
        below = page.locator(".byzanz .bz-final-hand > .cards, .byzanz .bz-profits > .cards").evaluate_all(
            "ns => ns.map(n => n.getBoundingClientRect().top - n.parentElement.getBoundingClientRect().top)"
        )
        assert below and min(below) >= 10, below
        # "(tie-break)" is never cut at its hyphen: its opening and closing bracket sit on one line
        bracket = page.locator("table.bz-final th .nowrap").evaluate_all(
            "ns => ns.map(n => n.getClientRects().length)"
        )
        assert bracket == [1], bracket
        fits(page, width)
        shot(page, f"21-byzanz-end-{width}")


def test_grand_bazaar_end_counts_every_gem_once(live_server, browser):
    table_id, state = finished_bot_game(live_server, "grand_bazaar")
    for width in WIDTHS:
        page = open_the_end(browser, live_server, table_id, width)
        page.wait_for_selector("table.gb-final")
        scores = dict(enumerate(state.scores()))
        totals = column(page, "table.gb-final", "Total")
        assert {s: as_number(v) for s, v in totals.items()} == scores
        # the players' table under it says the same: the gems were cashed out into the grands, not added again
        players = page.locator(".grand-bazaar table.scores:not(.gb-final)")
        worth = {}
        for row in players.locator("tbody tr").all():
            cells = row.locator("td").all_inner_texts()
            worth[seat_of(cells[0])] = float(cells[-1])
        assert worth == scores
        # and its Grands are the final table's Grands, the grands before the cash-out (they read 49 under 9)
        grands_above = column(page, "table.gb-final", "Grands")
        grands_below = column(page, ".grand-bazaar table.scores:not(.gb-final)", "Grands")
        assert grands_below == grands_above
        fits(page, width)
        shot(page, f"22-grand-bazaar-end-{width}")
    # its replay seen by P1 on turn offers no trade (its closed Buy buttons read "need -10 more grands")
    page.goto(f"{live_server}/replay/{table_id}")
    page.wait_for_selector("#replay-seat")
    page.select_option("#replay-seat", "0")
    page.click("#replay-next")
    page.wait_for_function("document.querySelector('#replay-at').textContent.startsWith('Move 1 /')")
    page.wait_for_selector(".grand-bazaar .gb-gem")
    assert page.locator(".gb-controls").count() == 0
    assert "more grand" not in page.inner_text("section.grand-bazaar")


def test_samarkand_end_table_is_the_engines_scores_and_every_hand_is_shown(live_server, browser):
    table_id, state = finished_bot_game(live_server, "samarkand")
    for width in WIDTHS:
        page = open_the_end(browser, live_server, table_id, width)
        page.wait_for_selector("table.sk-final")
        totals = column(page, "table.sk-final", "Total")
        assert page.locator("table.sk-final thead th").all_inner_texts()[:2] == ["Rank", "Player"]
        # a family's name stays on its badge's line (it wrapped under it: "B / Byzantium")
        beside = page.locator(".sk-families tbody th").evaluate_all(
            "ths => ths.map((th) => { const badge = th.querySelector('.sk-swatch').getBoundingClientRect();"
            " const range = document.createRange(); range.selectNodeContents(th);"
            " const rects = [...range.getClientRects()].filter((r) => r.width > 0);"
            " return rects.every((r) => r.top < badge.bottom); })"
        )
        assert beside and all(beside), beside
        # each seat's family tiles are named to a screen reader, apart (their letters read as one word)
        players = page.locator("table.scores:has(caption:text-is('Players')) tbody tr")
        named = players.evaluate_all(
            "rows => rows.map((r) => [...r.querySelectorAll('.sk-swatch')]"
            ".map((s) => s.getAttribute('aria-label')))"
        )
        assert named == [info["tiles"] for info in state.view(None)["seats"]]
        assert any(len(tiles) > 1 for tiles in named), "a seat with two tiles or more"
        assert {s: as_number(v) for s, v in totals.items()} == dict(enumerate(state.scores()))
        for info in state.view(None)["seats"]:
            shown = page.locator(f".sk-final-hand[data-seat='{info['seat']}'] [data-good]")
            goods = shown.evaluate_all("nodes => nodes.map(n => Number(n.dataset.good))")
            assert Counter(goods) == Counter(card["good"] for card in info["hand"]), "the whole hand is shown"
            # each card with what it scored, "1 point" or "4 points" (it read "(1 pts)", issue 32)
            said = dict(zip(goods, shown.all_text_contents(), strict=True))
            for card in info["hand"]:
                unit = "point" if card["points"] == 1 else "points"
                assert said[card["good"]].endswith(f"({card['points']} {unit})"), said[card["good"]]
        fits(page, width)
        # every column in view, Dirhams too, without scrolling the table sideways: the sums can be checked
        hidden = page.locator("table.sk-final").evaluate("t => t.scrollWidth - t.parentElement.clientWidth")
        assert hidden <= 1, f"the final table hides {hidden} px of its columns at {width} px"
        shot(page, f"23-samarkand-end-{width}")


MONEY_END_LANGUAGES = ("en", "de", "pt", "fr")


def test_money_end_table_is_readable_on_a_phone(live_server, browser):
    """On a 390×844 phone Money's end table was cramped: five columns squeezed, each currency's working
    ("GBP 120 − 100 (under 200) + 100 (trio) = 120") broken over many short lines. Each seat's row now
    stacks: every cell within the screen, no two cells overlapping, no word cut, the working on lines of
    its own wide enough to read."""
    table_id, _ = finished_bot_game(live_server, "money")
    for language in MONEY_END_LANGUAGES:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"{live_server}/table/{table_id}?lang={language}")
        page.wait_for_selector(".money table.scores tbody tr")
        fits(page, 390)
        boxes = page.locator(".money table.scores td, .money table.scores th").evaluate_all(
            """cells => cells.filter(c => getComputedStyle(c).display !== 'none').map(c => {
                 const b = c.getBoundingClientRect();
                 return {left: b.left, right: b.right, top: b.top, bottom: b.bottom, text: c.innerText,
                         cut: c.scrollWidth > c.clientWidth + 1, row: c.parentElement.rowIndex};
               })"""
        )
        assert boxes
        for box in boxes:
            assert box["left"] >= 0 and box["right"] <= 390, f"{language}: {box['text']!r} leaves the screen"
            assert not box["cut"], f"{language}: {box['text']!r} is cut"
        headings = page.locator(".money table.scores th:not(.working)").evaluate_all(
            """hs => hs.map(h => {
                 const range = document.createRange();
                 range.selectNodeContents(h);
                 return [h.innerText, new Set([...range.getClientRects()].map(r => Math.round(r.top))).size];
               })"""
        )
        for text, lines in headings:  # a word is never broken ("Rang" was, into "Ran" and "g")
            assert " " in text.strip() or lines == 1, f"{language}: the heading {text!r} is broken"
        labels = page.locator(".money .card").evaluate_all(
            "cs => cs.map(c => [c.innerText, c.querySelector('.card-kind').getBoundingClientRect().width,"
            " c.getBoundingClientRect().width])"
        )
        for text, label, card in labels:  # a card's name within its card (MÜNZE spilled over the coin)
            assert label <= card + 1, f"{language}: {text!r}'s name is {label:.0f} px on a {card:.0f} px card"
        for i, one in enumerate(boxes):
            for other in boxes[i + 1 :]:
                apart = (
                    one["right"] <= other["left"] + 0.5
                    or other["right"] <= one["left"] + 0.5
                    or one["bottom"] <= other["top"] + 0.5
                    or other["bottom"] <= one["top"] + 0.5
                )
                assert apart, f"{language}: {one['text']!r} and {other['text']!r} overlap"
        working = page.locator(".money table.scores td.working div").evaluate_all(
            "lines => lines.map(l => l.getBoundingClientRect().width)"
        )
        assert working and min(working) >= 200, f"{language}: a currency's working is {min(working)} px wide"
        shot(page, f"money-end-phone-{language}")
        page.close()


def shared_by_the_first_two(message: str) -> str:
    """A finished table's update as the server sends it after a win the first two seats share."""
    data = json.loads(message)
    if data.get("type") == "state" and (data["table"].get("result") or {}).get("winners"):
        data["table"]["result"]["winners"] = [0, 1]
    return json.dumps(data)


def test_a_shared_win_is_announced_in_the_plural_in_every_language(live_server, browser):
    # the banner read "Winner: P1, P2" and "Vencedor: …" after a shared win (the sixteenth newcomer's pass)
    table_id, state = finished_bot_game(live_server, "money")
    alone = browser.new_page(viewport={"width": 1100, "height": 900})
    alone.goto(f"{live_server}/table/{table_id}?lang=pt")
    alone.wait_for_function("document.querySelector('.table-head .banner')?.textContent.includes(':')")
    expected = {"en": "Winners: ", "de": "Sieger: ", "fr": "Gagnants : ", "pt": "Vencedores: "}
    banner = alone.inner_text(".table-head .banner")
    one = "Vencedor: " if len(state.winners()) == 1 else "Vencedores: "  # as the game really ended
    assert banner.startswith(one), banner
    shared = browser.new_page(viewport={"width": 1100, "height": 900})
    updates_rewritten(shared, shared_by_the_first_two)
    for language, heading in expected.items():
        shared.goto(f"{live_server}/table/{table_id}?lang={language}")
        shared.wait_for_function("document.querySelector('.table-head .banner')?.textContent.includes(':')")
        banner = shared.inner_text(".table-head .banner")
        assert banner.startswith(heading) and "P1" in banner and "P2" in banner, (language, banner)
        assert "P3" not in banner, (language, banner)

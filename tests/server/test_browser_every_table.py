"""Issue 32, "every table a pleasure": the rough edges a newcomer met at the tables, in chromium. A sale
offer's time says what happens when it runs out, a refused analysis says why, a game's subtitle and the
French colon are in the reader's language, Grand Bazaar's price figure and German gem letters read plainly,
a Money hand is shown once at the end, and the desktop lobby's form fills its width. A refused move reads in
words, its message clear of the form it was typed in; a replay draws no empty banner; the analysis chart
fills a desktop's panel."""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)
from __future__ import annotations

import json
import re

import httpx
import pytest

from merchantry.i18n import CLAUSE_ID
from tests.server.live_tables import finished_bot_table
from tests.server.test_browser import ARTIFACTS, browser, create_table, live_server, shot  # noqa: F401
from tests.server.test_browser import pytestmark as browser_needed
from tests.server.test_browser_newcomer import finished_table_with_a_person, with_a_deadline

pytestmark = browser_needed

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def in_language(page, language: str) -> None:
    """The page now shown, again in `language` (`?lang=` chooses it, and later pages keep it)."""
    page.goto(page.url.split("?")[0] + f"?lang={language}")


def rewriting(change):
    """A WebSocket route that passes every server update through `change(data)` (a state's JSON)."""

    def route(ws):
        server = ws.connect_to_server()

        def onward(message):
            data = json.loads(message)
            if data.get("type") == "state":
                change(data)
            ws.send(json.dumps(data))

        server.on_message(onward)
        ws.on_message(lambda message: server.send(message))

    return route


def test_a_sale_offers_time_in_the_banner_says_what_happens_when_it_runs_out(live_server, browser):
    """The banner read "Your answer · 25 s left": left to do what, and then? At the timeout the server has a
    bot answer for whoever has not (tables.answer_for_the_absent), and the banner says so."""
    page = browser.new_page(viewport=PHONE)

    def offering(ws):  # an offer for the first card of the hand, 20 s before the server answers for one
        server = ws.connect_to_server()

        def onward(message):
            data = json.loads(with_a_deadline(message))
            if data.get("type") == "state" and (data.get("view") or {}).get("offer"):
                data["table"]["clock"] = {str(data["seat"]): 20.0}  # as the server sends it in such a step
            ws.send(json.dumps(data))

        server.on_message(onward)
        ws.on_message(lambda message: server.send(message))

    page.route_web_socket(re.compile(r"/ws/tables/"), offering)
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:greedy"], game="samarkand")
    page.locator(".samarkand .sk-offer.answering").wait_for()
    banner = page.locator(".table-head .banner")
    page.wait_for_function(
        "document.querySelector('.table-head .banner').textContent.includes('left to answer')"
    )
    said = banner.inner_text()
    assert re.search(r"\d+ s left to answer; then a bot answers for you$", said), said
    shot(page, "every-table-offer-banner-390")
    page.close()


def test_an_analysis_the_server_refuses_says_why_in_the_readers_language(live_server, browser):
    """A 429 (the client's analysis still running, or the server's queue full) showed nothing lasting: the
    panel now says it, translated, with the queue's length when the server gives it."""
    table_id = finished_bot_table(live_server, "grand_bazaar", ["random", "random"])
    page = browser.new_page(viewport=DESKTOP)
    refusals = iter(
        [
            {"key": "queue_full", "params": {"waiting": 4}, "clauses": []},
            {"key": "own_job_waiting", "params": {}, "clauses": []},
        ]
    )

    def refuse(route):
        if route.request.method != "POST":
            return route.continue_()
        why = next(refusals)
        body = {"error": "the server has 4 analyses waiting already: try again in a moment", "why": why}
        return route.fulfill(status=429, content_type="application/json", body=json.dumps(body))

    page.route(re.compile(r"/api/tables/[\w-]+/analysis$"), refuse)
    page.goto(f"{live_server}/replay/{table_id}?lang=de")
    page.click("#analyse")
    busy = page.locator("#analysis #analysis-busy")
    busy.wait_for()
    assert busy.inner_text() == "Zu viele Analysen laufen: 4 warten schon. Versuch es in einer Minute wieder."
    assert busy.get_attribute("role") == "alert"
    assert page.locator("#analyse").is_visible(), "it can be asked for again"
    shot(page, "every-table-analysis-refused-1280")
    page.click("#analyse")
    page.wait_for_selector("#analysis-busy:has-text('Deine vorige Analyse wartet noch')")
    assert "startet von selbst" in page.inner_text("#analysis-busy")
    page.unroute(re.compile(r"/api/tables/[\w-]+/analysis$"))
    # one's own earlier analysis done: this one is asked for again by itself, with no press
    page.wait_for_selector("#analysis h2", timeout=30_000)
    assert page.locator("#analysis-busy").count() == 0
    page.close()


def test_samarkands_subtitle_is_in_the_readers_language(live_server, browser):
    games = httpx.get(live_server + "/api/games").json()
    titles = next(g["titles"] for g in games if g["name"] == "samarkand")
    assert titles == {
        "en": "Samarkand: Routes to Riches",
        "pt": "Samarkand: Rotas da Riqueza",
        "fr": "Samarkand : Les Routes de la richesse",
        "de": "Samarkand: Wege zum Reichtum",
    }
    page = browser.new_page(viewport=DESKTOP)
    page.goto(live_server + "/?lang=pt")
    page.wait_for_selector("#game")
    assert page.locator("#game option[value=samarkand]").inner_text() == titles["pt"]
    assert titles["pt"] in page.inner_text(".learn-buttons")
    assert "Routes to Riches" not in page.inner_text("main")
    create_table(page, live_server, "Ann", ["human", "bot:greedy"], game="samarkand")
    page.wait_for_selector(".samarkand")
    assert page.inner_text(".table-head h1") == titles["pt"]
    assert titles["pt"] in page.title()
    rules = httpx.get(live_server + "/rules/samarkand?lang=fr").text
    assert f"<title>{titles['fr']}" in rules.replace("&#x27;", "'")
    page.close()


def test_french_text_has_a_space_before_its_colons_in_the_game_drawings(live_server, browser):
    """French typography wants "à venir : 3 5"; Byzanz's drawing wrote ": " itself ("à venir: 3 5"). The
    separator comes from the catalogue: " : " in French, ": " elsewhere."""
    page = browser.new_page(viewport=DESKTOP)
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:greedy"], game="byzanz")
    page.wait_for_selector(".byzanz .status-line")
    in_language(page, "fr")
    page.wait_for_selector(".byzanz .status-line:has-text('à venir')")
    line = page.inner_text(".byzanz .status-line")
    assert re.search(r"à venir : \d", line) and not re.search(r"\S: ", line), line
    words = page.inner_text(".byzanz")
    assert not re.search(r"[^\s\d]: ", words), f"a colon without its space: {words!r}"
    shot(page, "every-table-byzanz-fr-1280")
    in_language(page, "en")
    page.wait_for_selector(".byzanz .status-line:has-text('to come: ')")
    page.close()


def price_heads(page) -> list[str]:
    return page.locator(".grand-bazaar .gb-gem-head").all_inner_texts()


def test_grand_bazaars_price_says_how_the_last_card_moved_it_and_german_gem_letters_are_unique(
    live_server, browser
):
    """A price read "price 10 (= 0)": now "(last card: unchanged)", "(last card: ▲ +1)"; German named the
    emerald (Smaragd) "E", and S would be the sapphire's (Saphir) too: Sa, R, Sm."""
    page = browser.new_page(viewport=PHONE)

    def unchanged(data):  # the last card left the first gem where it was
        history = (data.get("view") or {}).get("price_history")
        if history and len(history) > 1:
            history[-2][0] = data["view"]["prices"][0]

    page.route_web_socket(re.compile(r"/ws/tables/"), rewriting(unchanged))
    create_table(page, live_server, "Ann", ["human", "bot:greedy"], game="grand_bazaar")
    page.wait_for_selector(".grand-bazaar .gb-gem-head")
    heads = price_heads(page)
    assert "= 0" not in " ".join(heads)
    assert "(last card: unchanged)" in heads[0], heads
    for head in heads:
        assert re.search(r"price \d+ \(last card: (unchanged|▲ \+\d|▼ −\d)\)", head), head
    in_language(page, "de")
    page.wait_for_selector(".grand-bazaar .gb-gem-head:has-text('Smaragd')")
    heads = price_heads(page)
    assert [h.split(" · ")[0] for h in heads] == ["Sa", "R", "Sm"], heads
    assert "(letzte Karte: unverändert)" in heads[0], heads
    markers = page.locator(".grand-bazaar .gb-marker").all_inner_texts()
    assert [re.sub(r"\d+$", "", m) for m in markers] == ["Sa", "R", "Sm"], markers
    shot(page, "every-table-grand-bazaar-de-390")
    page.close()


def test_a_money_hand_is_shown_once_at_the_end(live_server, browser):
    """At the end one's own hand showed twice: in one's seat ("Hand at the end") and under "Your hand"; then
    its box stood almost empty beside the others' cards (eighth pass): it is in its box, as everyone's."""
    table_id, token = finished_table_with_a_person(live_server)
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live_server}/")
    page.evaluate(
        "([id, token]) => localStorage.setItem(`merchantry:table:${id}`, JSON.stringify({ token, seat: 0 }))",
        [table_id, token],
    )
    page.goto(f"{live_server}/table/{table_id}")
    page.wait_for_selector(".money table.scores")
    view = httpx.get(f"{live_server}/api/tables/{table_id}", headers={"X-Seat-Token": token}).json()["view"]
    hand = view["results"][-1]["hands"][0]["hand"]
    mine = page.locator(".money .seat[data-seat='0'] .final-hand [data-card]").evaluate_all(
        "ns => ns.map((n) => n.dataset.card)"
    )
    assert sorted(mine) == sorted(hand), "one's hand in one's seat's box"
    assert page.locator(".money .mine").count() == 0, "and not again under 'Your hand'"
    for seat in range(len(view["seats"])):  # every hand, once, in its seat
        assert page.locator(f".money .seat[data-seat='{seat}'] .final-hand").count() == 1
    shown = page.locator(".money [data-card]").evaluate_all("ns => ns.map((n) => n.dataset.card)")
    everyone = [card for h in view["results"][-1]["hands"] for card in h["hand"]]
    assert sorted(shown) == sorted(everyone), "every card of every hand, once"
    shot(page, "every-table-money-end-1280")
    page.close()


def test_the_desktop_lobbys_new_table_form_fills_its_width(live_server, browser):
    """At 1280 px the form was a narrow column with half the page empty beside it: who plays and how now
    stand side by side; on a phone one below the other, never wider than the screen."""
    page = browser.new_page(viewport=DESKTOP)
    page.goto(live_server + "/")
    page.wait_for_selector("#create .create-how")
    form = page.locator("#create").bounding_box()
    main = page.evaluate(
        "(() => { const r = document.querySelector('main').getBoundingClientRect(); "
        "const s = getComputedStyle(document.querySelector('main')); "
        "return r.width - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); })()"
    )
    assert form["width"] >= 0.95 * main, (form, main)
    who, how = (page.locator(f"#create .create-{part}").bounding_box() for part in ("who", "how"))
    assert who["x"] + who["width"] <= how["x"] and abs(who["y"] - how["y"]) < 2, (who, how)
    assert how["width"] >= 0.4 * form["width"] and who["width"] >= 0.4 * form["width"]
    shot(page, "every-table-lobby-1280")
    page.set_viewport_size(PHONE)
    who, how = (page.locator(f"#create .create-{part}").bounding_box() for part in ("who", "how"))
    assert how["y"] >= who["y"] + who["height"], "one below the other on a phone"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "every-table-lobby-390")
    page.close()


# whether two boxes of the window (getBoundingClientRect's) overlap
OVERLAP = """([a, b]) => {
  const one = document.querySelector(a).getBoundingClientRect();
  const two = document.querySelector(b).getBoundingClientRect();
  return one.left < two.right && two.left < one.right && one.top < two.bottom && two.top < one.bottom;
}"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_gb_r3_a_refused_move_reads_in_words_and_its_message_leaves_the_controls_in_sight(
    live_server, browser, size
):
    """A refused move read "Not allowed: merchants cannot be bid (BZ-A4)", and on a phone the message lay
    over the Send button it was typed beside: now the reason in words, and the message clear of the form."""
    page = browser.new_page(viewport=size)
    create_table(page, live_server, "Ann", ["human", "bot:greedy"], game="grand_bazaar")
    page.wait_for_selector(".moves-panel button[data-move^='buy ']", state="attached", timeout=60_000)
    if not page.locator("#move").is_visible():
        page.click(".moves-panel summary")
    page.fill("#move", "done")  # a buy is due first (GB-R3)
    page.evaluate("document.querySelector('#move').scrollIntoView({ block: 'end' })")  # the window's foot
    page.press("#move", "Enter")
    toast = page.locator("#toasts .toast")
    toast.wait_for()
    said = toast.inner_text()
    assert said == "Not allowed: you must buy at least one gem this turn before you are done", said
    assert not page.evaluate(OVERLAP, ["#toasts", ".move-form"]), "the message covers the move's form"
    assert page.evaluate(OVERLAP, ["#toasts", "#toasts .toast"])  # (the test's boxes are the shown ones)
    shot(page, f"every-table-refused-in-words-{size['width']}")
    page.close()


@pytest.mark.parametrize("language", ["en", "pt", "fr", "de"])
def test_a_refusal_reads_without_clause_ids_in_every_game_and_language(live_server, browser, language):
    """The page says a refusal from the game's catalogue, or the server's English sentence where the
    catalogue has no text for it: both without the clause ids the server's `why` names (developers keep
    them in the errors and the logs)."""
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live_server}/?lang={language}")
    page.wait_for_selector("#game")
    said = page.evaluate(
        """async (names) => {
          const { gameTranslator } = await import('/static/i18n.js');
          const out = [];
          for (const game of names) {
            const tr = await gameTranslator(game);
            const keys = Object.keys((await (await fetch(`/games/${game}/locales/en.json`)).json()).reason);
            for (const key of [...keys, 'no_such_key']) {
              const why = { key, params: {}, clauses: ['XX-A4', 'XX-B1'] };
              out.push([game, key, tr.reason(why, 'a sentence (XX-A4, XX-B1)')]);
            }
          }
          return out;
        }""",
        [g["name"] for g in httpx.get(live_server + "/api/games").json()],
    )
    assert len({game for game, _, _ in said}) == 4 and len(said) > 40
    for game, key, text in said:
        assert text and not CLAUSE_ID.search(text), (game, key, text)
        if key == "no_such_key":
            assert text == "a sentence"  # the English sentence, in words
    page.close()


def test_a_byzanz_replay_seen_by_a_seat_shows_no_empty_banner(live_server, browser):
    """Replayed from the point of view of the seat to move (nothing for it to do in a replay), the prompt
    had nothing to say and an empty yellow strip stood under the bar."""
    table_id = finished_bot_table(live_server, "byzanz", ["greedy", "greedy", "greedy"])
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live_server}/replay/{table_id}")
    page.wait_for_selector("#replay-seat")
    page.select_option("#replay-seat", "0")
    seen_by_the_mover = bids_shown = 0
    for at in range(1, 41):
        page.click("#replay-next")
        page.wait_for_function(f"document.querySelector('#replay-at')?.textContent.includes(' {at} /')")
        empty = page.evaluate(
            "[...document.querySelectorAll('.banner')]"
            ".filter((b) => !b.textContent.trim() && b.getBoundingClientRect().height > 0).length"
        )
        assert empty == 0, f"move {at}: an empty banner is shown"
        seen_by_the_mover += page.locator(".byzanz .bz-prompt").count() == 0
        # nothing is played in a replay: a bid in the making shows its cards, not a live-looking Bid
        assert page.locator("#bz-bid, .bz-actions button").count() == 0, f"move {at}: a move button"
        bids_shown += page.locator(".bz-building").count()
    assert seen_by_the_mover > 0, "no position was seen by the seat to move (the case of the empty strip)"
    assert bids_shown > 0, "no bid in the making was replayed (the case of the Bid button)"
    page.close()


@pytest.mark.parametrize(
    ("game", "prompt", "your_turn"),
    [("grand_bazaar", ".gb-prompt", "Your turn"), ("samarkand", ".sk-prompt", "Your turn")],
)
def test_a_replay_at_move_0_seen_by_the_first_mover_waits_for_it_and_says_no_your_turn(
    live_server, browser, game, prompt, your_turn
):
    """Issue 32, seventh pass: Grand Bazaar's replay at move 0, seen by P1, said "Du bist dran" (your turn),
    where nothing can be played."""
    table_id = finished_bot_table(live_server, game, ["greedy", "greedy", "greedy"])
    first = httpx.get(f"{live_server}/api/tables/{table_id}/record").json()["moves"][0][0]
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live_server}/replay/{table_id}")
    page.wait_for_selector("#replay-seat")
    page.select_option("#replay-seat", str(first))
    page.wait_for_selector("#replay-at:has-text('0 /')")
    page.wait_for_function(f"document.querySelector('{prompt}')?.textContent.includes('Waiting for')")
    said = page.inner_text(prompt)
    assert said.startswith("Waiting for") and your_turn not in said, said
    page.close()


def test_a_log_whose_numbers_skip_says_why(live_server, browser):
    """Issue 32, seventh pass: Byzanz's log went 12, 13, 17 with no word why (the moves between wrote no
    line: cards put into a bid). Where the numbers skip, a note under the log says so."""
    table_id = finished_bot_table(live_server, "byzanz", ["greedy", "greedy", "greedy"])
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live_server}/table/{table_id}")
    page.wait_for_selector("ol.by-move li[data-move-number]")
    numbers = [
        int(n)
        for n in page.locator("ol.by-move li[data-move-number]").evaluate_all(
            "ls => ls.map((l) => l.dataset.moveNumber)"
        )
    ]
    skipped = any(b > a + 1 for a, b in zip(numbers, numbers[1:], strict=False))
    assert skipped, "no number skipped: nothing to explain"
    assert "some numbers are skipped" in page.inner_text(".log-numbers-skip")
    page.close()


def test_the_analysis_chart_fills_the_desktop_panel_and_fits_a_phone(live_server, browser):
    """The chart of the seats' chances was held to 40rem, half a desktop's panel: it fills the panel now,
    drawn at the scale of its width so its words keep their size; on a phone it stays within the screen."""
    table_id, _ = finished_table_with_a_person(live_server)
    for size in (DESKTOP, PHONE):
        page = browser.new_page(viewport=size)
        page.goto(f"{live_server}/replay/{table_id}")
        if size is DESKTOP:
            page.click("#analyse")
        page.wait_for_selector("#analysis .analysis-summary", timeout=120_000)
        chart = page.locator("svg.chance-chart").bounding_box()
        panel = page.locator("#analysis").bounding_box()
        assert chart is not None and panel is not None
        assert chart["width"] >= 0.95 * panel["width"], (chart, panel)
        assert chart["x"] + chart["width"] <= size["width"]
        tick = page.locator("svg.chance-chart text.move-tick").first.bounding_box()
        assert tick is not None and 10 <= tick["height"] <= 20, tick  # legible, not blown up
        if size is DESKTOP:
            assert chart["height"] >= 250, chart  # taller as it widens
        page.locator("#analysis").screenshot(path=str(ARTIFACTS / f"every-table-chart-{size['width']}.png"))
        page.close()


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "put AUD 20, CAD 30 and BRL 20 into the bid, then take AUD 20 back, then seal the bid"),
        ("fr", "mettre AUD 20, CAD 30 et BRL 20 dans l'offre, puis reprendre AUD 20, puis sceller l'offre"),
    ],
)
def test_a_whole_bid_in_words_names_its_cards_in_one_phrase(live_server, browser, language, expected):
    """A key moment or a turning point says a Money bid as a person would: its cards listed once ("put AUD
    20, CAD 30 and BRL 20 into the bid"), not a sentence per card (the sixth newcomer's pass read them as
    long run-on lists); a lone step and a game without such words keep one phrase a step."""
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live_server}/?lang={language}")
    page.wait_for_selector("#game")
    said, grand_bazaar = page.evaluate(
        """async () => {
          const { gameTranslator, moveInWords } = await import('/static/i18n.js');
          const money = await gameTranslator('money');
          const bazaar = await gameTranslator('grand_bazaar');
          return [moveInWords('add AUD20, add CAD30, add BRL20, remove AUD20, bid', money),
                  moveInWords('buy ruby, buy ruby, done', bazaar)];
        }"""
    )
    assert said == expected
    if language == "en":  # Grand Bazaar has no words for a run of buys: a phrase a step, as before
        assert grand_bazaar == "buy one ruby, then buy one ruby, then end the turn", grand_bazaar


def test_samarkand_says_when_one_more_relationship_ends_the_game(live_server, browser):
    """Issue 32, tenth pass: a newcomer's own camel ended a Samarkand game they lost by a point, and nothing
    on the table had warned that a family was at 4 of its 5 relationships (SK-E1). The table now says which
    family's next relationship ends the game, and which families alone have had none; and nothing early on."""
    page = browser.new_page(viewport=PHONE)
    near = {"on": False}

    def last_markers(data):
        families = (data.get("view") or {}).get("families") or []
        if near["on"] and families:
            families[0]["markers_left"] = 1  # one left: its next relationship ends the game
            for family in families[1:-1]:
                family["markers_left"] = 3  # every family but the last has had a relationship
            families[-1]["markers_left"] = 5

    page.route_web_socket(re.compile(r"/ws/tables/"), rewriting(last_markers))
    create_table(page, live_server, "Ann", ["human", "bot:greedy"], game="samarkand")
    page.wait_for_selector(".samarkand .sk-families")
    assert page.locator(".sk-end-near").count() == 0, "no warning at the start"
    near["on"] = True
    page.reload()
    page.wait_for_selector(".sk-end-near")
    said = page.inner_text(".sk-end-near")
    names = page.locator(".sk-families tbody tr th").all_inner_texts()
    first, last = (name.strip().split(" ", 1)[1] for name in (names[0], names[-1]))  # past the swatch
    assert f"One more relationship of {first} (its last marker) ends the game at once." in said, said
    assert f"{last} has had no relationship yet: its first ends the game at once." in said, said
    page.close()


def test_the_chart_marks_every_mark_with_a_dot_and_a_lessons_moves_with_a_hollow_square(live_server, browser):
    """nc18: an inaccuracy listed among the marks had no dot on the chart (a mistake and a blunder had); nc17,
    nc18: a lesson's own moves, unjudged, were drawn like the learner's, and their drops read as slips. The
    analysis is the server's, but for the first decision called the lesson's and the next an inaccuracy."""
    table_id, _ = finished_table_with_a_person(live_server)
    changed = {}

    def one_taught_one_inaccuracy(route):
        body = route.fetch().json()
        if body.get("status") == "done":
            mine = [d for d in body["decisions"] if d["seat"] == 0]
            mine[0].update(taught=True, mark=None)
            mine[1].update(mark="inaccuracy")
            changed.update(taught=mine[0]["move"], inaccuracy=mine[1]["move"])
        route.fulfill(json=body)

    page = browser.new_page(viewport=DESKTOP)
    page.route(re.compile(r"/api/tables/[^/]+/analysis$"), one_taught_one_inaccuracy)
    page.goto(f"{live_server}/replay/{table_id}")
    page.click("#analyse")
    page.wait_for_selector("#analysis .analysis-summary", timeout=120_000)
    chart = page.locator("svg.chance-chart")
    assert chart.locator("rect.lesson-move").count() == 1
    assert f" {changed['taught']}: " in chart.locator("rect.lesson-move title").text_content()
    assert "(the lesson's move (not judged))" in chart.locator("rect.lesson-move title").text_content()
    dots = chart.locator("circle.mark-inaccuracy")
    assert dots.count() == 1
    assert f" {changed['inaccuracy']}: " in dots.locator("title").text_content()
    legend = page.locator(".chart-legend .legend-lesson").inner_text()
    assert legend.strip() == "the lesson's move (not judged)"
    marked = page.locator(".analysis-marks tbody tr").count()
    assert chart.locator("circle.mark-dot").count() == marked, "a dot for every mark of the table"

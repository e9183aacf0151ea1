"""Real-browser tests: Playwright driving Debian's chromium against a live server.

Two browser contexts join one Money table as two players, a bot takes the third seat, and they play to
the end through the page; a reload mid-game resumes the seat. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import os
import re
import time
import warnings
from pathlib import Path

import httpx
import pytest

from merchantry import records
from merchantry.bots.ismcts import SearchConfig, win_shares
from merchantry.i18n import Translator
from merchantry.server.app import create_app
from tests.server.conftest import free_port, serving  # noqa: F401  (free_port: for the modules that import it from here)
from tests.server.live_tables import wait_until_finished

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
REQUIRED = os.environ.get("MERCHANTRY_REQUIRE_BROWSER") == "1"  # CI installs chromium and sets this

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not REQUIRED,
    reason="Debian's chromium is not installed (apt-get install chromium)",
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def live_server(tmp_path):
    quick = SearchConfig(iterations=30, rollout_depth=10)  # hints and analyses in a blink
    app = create_app(
        f"sqlite:///{tmp_path / 'web.db'}",
        bot_delay=0.05,
        hint_search=quick,
        analysis_search=quick,
        unseen_window_seconds=0.0,  # a sale offer's 3 s window made a Samarkand game minutes long
    )
    with serving(app) as base:
        yield base


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def shot(page, name: str) -> None:
    """A full-page screenshot for people to look at (test-artifacts/), never a check: one that times out on a
    loaded machine (a clean-clone CI's lesson test once did, after every assertion had passed) is skipped
    with a warning."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    ARTIFACTS.mkdir(exist_ok=True)
    try:
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    except PlaywrightTimeout:
        warnings.warn(f"screenshot {name} timed out: not taken", stacklevel=2)


def try_click(page, selector: str) -> bool:
    locator = page.locator(selector)
    if locator.count() == 0:
        return False
    try:
        locator.first.click(timeout=1500)
        return True
    except Exception:  # the page re-rendered under the pointer: try again on the next pass
        return False


def play_a_step(page) -> bool:
    """One sensible move if it is this page's turn: bid the first card and seal, or take a group."""
    if page.locator("button.primary:has-text('Seal')").count():
        if page.locator(".mine .group-title:has-text('(value 0)')").count():
            try_click(page, ".hand button.card")
        return try_click(page, "button.primary:has-text('Seal')")
    for label in ("Take right", "Take left", "Take my bid back"):
        if try_click(page, f"button:has-text('{label}')"):
            return True
    return False


def finished(page) -> bool:
    return page.locator(".banner:has-text('Winner')").count() > 0


LEVELS = ("easy", "medium", "hard")  # the lobby's bots for people; the others are folded away


def show_other_bots(page) -> None:
    """Unfold the lobby's other bots (for testing strategies): the seat menus then offer them too."""
    if not page.locator("#other-bots[open]").count():
        page.click("#other-bots summary")
        page.wait_for_selector("select[data-seat] optgroup", state="attached")


def create_table(page, base: str, name: str, seats: list[str], game: str = "money") -> None:
    """Fill the lobby's form: one choice per seat ("human" or "bot:NAME"), then create the table."""
    page.goto(base + "/")
    page.select_option("#game", game)
    page.dispatch_event("#game", "change")
    page.fill("#name", name)
    page.fill("#players", str(len(seats)))
    page.dispatch_event("#players", "change")
    if any(choice.startswith("bot:") and choice[4:] not in LEVELS for choice in seats):
        show_other_bots(page)
    for seat, choice in enumerate(seats):
        page.select_option(f"select[data-seat='{seat}']", choice)
    page.click("#create button[type=submit]")


def joined_by_bob(host, browser, viewport: dict | None = None):
    """A second person's page, in a browser of their own, that took seat P2 by the host's invite link."""
    host.wait_for_selector("input.invite[data-seat='1']")
    guest = browser.new_context(viewport=viewport or {"width": 1100, "height": 900}).new_page()
    guest.goto(host.input_value("input.invite[data-seat='1']"))
    guest.fill("#join-name", "Bob")
    guest.click("#join button[type=submit]")
    guest.wait_for_selector(".seat.me:has-text('Bob')")
    return guest


def test_two_people_and_a_bot_play_money_to_the_end_in_the_browser(live_server, browser):
    host = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    create_table(host, live_server, "Ann", ["human", "human", "bot:greedy"])
    host.wait_for_selector(".money")
    assert "Waiting for P2" in host.inner_text(".banner")
    invite = host.input_value("input.invite[data-seat='1']")
    shot(host, "01-host-waiting")

    guest_context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone-sized screen
    guest = guest_context.new_page()
    guest.goto(invite)
    guest.fill("#join-name", "Bob")
    guest.click("#join button[type=submit]")
    guest.wait_for_selector(".money")
    guest.wait_for_selector(".seat.me:has-text('Bob')")
    host.wait_for_selector(".banner:has-text('Your turn')")
    shot(host, "02-host-bidding")
    shot(guest, "03-guest-phone")
    assert "null" not in host.inner_text(".money") + guest.inner_text(".money")  # nothing missing is drawn
    assert "click cards of your hand" in host.inner_text(".money-prompt")  # what to do now, in words

    reloaded, order_seen, exchange_prompted = False, False, False
    deadline = time.time() + 240
    steps = 0
    while time.time() < deadline and not (finished(host) and finished(guest)):
        # looked at before the host moves too: its own exchange prompt shows only until it takes a group
        exchange_prompted = (
            exchange_prompted or host.locator(".money-prompt:has-text('take a market group')").count() > 0
        )
        moved = play_a_step(host) | play_a_step(guest)
        steps += moved
        order_seen = order_seen or host.locator(".exchange-order:has-text('1. P')").count() > 0
        exchange_prompted = (
            exchange_prompted or host.locator(".money-prompt:has-text('take a market group')").count() > 0
        )
        if steps == 12 and not reloaded:
            shot(host, "04-host-mid-game")
            guest.reload()  # the token in localStorage resumes the seat
            guest.wait_for_selector(".seat.me:has-text('Bob')")
            reloaded = True
        if not moved:
            host.wait_for_timeout(100)
    assert reloaded, "the game ended before the reload was tried"
    assert order_seen, "the exchange order is shown on the board"
    assert exchange_prompted, "the exchange says what to do"
    assert finished(host) and finished(guest), "the game did not finish in time"
    shot(host, "05-host-final")
    assert host.locator("table.scores").count() > 0
    final_text = host.inner_text("table.scores")
    assert "Ann" in final_text and "Bob" in final_text and "Simple bot" in final_text


def test_the_lobby_lists_finished_games_and_replays_step_through_them(live_server, browser):
    page = browser.new_page()
    create_table(page, live_server, "Watcher", ["bot:greedy", "bot:random", "bot:greedy"])
    page.wait_for_selector(".banner:has-text('Winner')", timeout=120_000)
    page.click("a:has-text('Replay')")
    page.wait_for_selector("#replay-at")
    assert page.inner_text("#replay-at").startswith("Move 0 /")
    # the replay says which game it is and leads back to its table (it opened on a bare bar of buttons)
    table_address = page.locator("#replay-back").get_attribute("href")
    assert page.inner_text("#replay h1") == page.evaluate(
        "async (path) => (await (await fetch('/api/tables/' + path.split('/').pop())).json()).table.title",
        table_address,
    )
    assert page.url.endswith(table_address.split("/")[-1]) and table_address.startswith("/table/")
    # a game with the standard options has no options line, and nothing stands in its place
    assert page.locator("#table-options").count() == 0
    assert "null" not in page.inner_text("#replay")
    page.click("#replay-next")
    page.wait_for_selector("#replay-at:has-text('Move 1 /')")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay-at:has-text('Move 2 /')")
    page.click("#replay-next-round")  # round 2 opens later than move 2 in a 3-player game of Money
    page.wait_for_function("!document.querySelector('#replay-at').textContent.startsWith('Move 2 /')")
    assert page.locator(".money .mine").count() == 0  # spectators see no hand
    page.select_option("#replay-seat", "0")  # after the end, any seat's point of view
    page.wait_for_selector(".money .mine .hand")
    # the jump lands where round 2 begins, as the status line and the analysis count rounds: its bids are
    # still to be made, so its log's first line (the reveal) is still to come
    assert page.inner_text(".money .status-line").startswith("Round 2")
    assert page.locator(".log li:has-text('Round 2: bids revealed')").count() == 0
    shot(page, "06-replay")
    page.goto(live_server + "/")
    page.wait_for_selector("table.tables")
    lobby = page.inner_text("table.tables")
    assert "finished" in lobby and "Winner" in lobby and "Started" in lobby  # a table with headers
    assert re.search(r"bot \(\d", lobby) and "this minute" in lobby  # the winner by name and score; its age


def test_the_interface_speaks_the_rulebooks_languages(live_server, browser):
    page = browser.new_page()
    page.goto(live_server + "/")
    page.wait_for_selector("#create")
    for lang, word in (
        ("pt", "Nova mesa"),
        ("de", "Neuer Tisch"),
        ("fr", "Nouvelle table"),
        ("en", "New table"),
    ):
        page.select_option("#lang", lang)
        page.wait_for_selector(f"h1:has-text('{word}')")
    # the lobby links each rules page by the game's title
    titles = {g["title"] for g in httpx.get(live_server + "/api/games").json() if g["rules"]}
    links = page.locator(".rules-links a")
    assert titles and {links.nth(i).inner_text() for i in range(links.count())} == titles
    german = browser.new_context(locale="de-DE").new_page()
    german.goto(live_server + "/")
    german.wait_for_selector("h1:has-text('Neuer Tisch')")  # chosen by the browser


# The first button found in each list is clicked: a person who always makes a simple legal move.
SIMPLE_PLAY = {
    "grand_bazaar": [
        "[data-move='done']",
        "[data-move^='buy ']:not([disabled])",
        "[data-move^='sell ']:not([disabled])",
    ],
    "byzanz": [
        "[data-move='bid']",
        "[data-move='pass']",
        "[data-move^='market ']",  # the lot card the winner puts into the market
        "[data-move^='take ']",
        "[data-move='done']",
        "#bz-discard-go",  # over the hand limit: the cards chosen to discard, sent at once
        "[data-stage-discard]:not([disabled])",  # ... chosen on the page first
    ],
}


@pytest.mark.parametrize("game", ["grand_bazaar", "byzanz"])
def test_a_person_plays_each_other_game_to_the_end_in_the_browser(live_server, browser, game):
    """On a desktop, then on a phone after a reload mid-game: the seat resumes and the game ends."""
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:random"], game=game)
    section = f"section.{game.replace('_', '-')}"
    page.wait_for_selector(section)
    deadline, moves, reloaded = time.time() + 240, 0, False
    while time.time() < deadline and not finished(page):
        if page.locator(".banner:has-text('Your turn')").count():
            moves += any(try_click(page, selector) for selector in SIMPLE_PLAY[game])
        if moves >= 10 and not reloaded:
            page.set_viewport_size({"width": 390, "height": 844})
            page.reload()
            page.wait_for_selector(section)
            shot(page, f"06-{game}-phone")
            assert page.evaluate("document.documentElement.scrollWidth") <= 391, "the page fits a phone"
            reloaded = True
        page.wait_for_timeout(50)
    assert reloaded and finished(page), f"{game} did not finish in time"
    final = {"grand_bazaar": "table.gb-final", "byzanz": "table.bz-final"}[game]
    assert page.locator(f"{final} tbody tr").count() == 3  # the end table: every seat, ranked
    shot(page, f"07-{game}-final")


def test_switching_language_mid_game_translates_the_log_and_card_names(live_server, browser):
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:greedy"], game="byzanz")
    page.wait_for_selector(".log li:has-text('Round 1 of')")
    page.wait_for_selector(".log li:has-text('Auction for offer')")
    page.select_option("#lang", "de")
    page.wait_for_selector(".log li:has-text('Runde 1 von')")
    auction = page.locator(".log li:has-text('Versteigerung für Angebot')").first.inner_text()
    assert re.search(r"Los .*(Tuch|Gewürz|Wein|Holz|Korn|Oliven|Händler)", auction), auction
    shot(page, "08-byzanz-log-in-german")
    page.select_option("#lang", "fr")
    page.wait_for_selector(".log li:has-text('Manche 1 sur')")
    page.select_option("#lang", "en")
    page.wait_for_selector(".log li:has-text('Round 1 of')")


def play_samarkand_step(page) -> None:
    """A person who always takes the first simple move: answer an offer, finish discards and second camels,
    marry the first family offered, else expand the first family onto its first highlighted space."""
    simple = ("[data-move^='sell ']", "[data-move='done']", "[data-move^='discard ']", "[data-move='pass']")
    for selector in (*simple, "[data-move^='marry ']"):
        if try_click(page, selector):
            return
    if page.locator(".sk-space.target").count() == 0:
        try_click(page, "[data-expand]")
    try_click(page, ".sk-space.target")


def expand_shows_its_spaces_on_a_phone(page) -> bool:
    """On a phone, Expand is in reach without scrolling the families table sideways, and pressing it brings
    the map with the family's highlighted spaces on screen (the map is above the table). False while no
    family can be expanded."""
    button = page.locator(".samarkand [data-expand]").first
    if page.locator(".sk-space.target").count() or not button.count():
        return False
    # in the families table scrolled back to its start: the button shows without scrolling it sideways
    hidden = button.evaluate(
        "b => { const box = b.closest('.sk-scroll'); box.scrollLeft = 0;"
        " return b.getBoundingClientRect().right - box.getBoundingClientRect().right; }"
    )
    assert hidden <= 0, f"Expand lies {hidden:.0f} px beyond the phone's edge"
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # at the table, the map out of sight
    if not try_click(page, ".samarkand [data-expand]"):
        return False
    page.wait_for_selector(".sk-space.target")
    page.wait_for_timeout(300)
    box = page.locator(".sk-space.target").first.bounding_box()
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert 0 <= centre[0] <= 390 and 0 <= centre[1] <= 844, f"the space to expand to is off screen: {centre}"
    return True


def test_a_person_plays_samarkand_to_the_end_on_a_desktop_and_a_phone_with_a_reload(live_server, browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:random"], game="samarkand")
    page.wait_for_selector("section.samarkand svg .sk-space")
    assert page.locator(".sk-space").count() == 77  # the map, drawn from its data file
    # every space shows its name, as the log and the hints give it ("a camel on B1")
    named = page.locator(".sk-space").evaluate_all(
        "gs => gs.filter(g => g.querySelector('.sk-space-id')?.textContent === g.dataset.space).length"
    )
    assert named == 77, f"{named} of 77 spaces show their name"
    page.wait_for_selector(".sk-prompt")
    shot(page, "08-samarkand-desktop")
    frame = page.locator(".sk-map-frame")
    assert frame.evaluate("f => f.scrollHeight - f.clientHeight") <= 1, "the whole map in view on a desktop"
    deadline, reloaded, revealed = time.time() + 300, False, False
    while time.time() < deadline and not finished(page):
        if reloaded and not revealed and page.locator(".banner:has-text('Your turn')").count():
            revealed = expand_shows_its_spaces_on_a_phone(page)
        if page.locator(".banner:has-text('Your turn')").count():
            play_samarkand_step(page)
        if not reloaded and page.locator(".sk-camel").count() >= 16:
            page.set_viewport_size({"width": 390, "height": 844})  # a phone, and the game survives a reload
            page.reload()
            page.wait_for_selector("section.samarkand svg .sk-space")
            shot(page, "09-samarkand-phone")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1, "the page fits the phone"
            # what a card scores is written under the hand, not only a tooltip a phone cannot show
            worth = page.locator(".sk-worth")
            assert worth.is_visible() and worth.inner_text() == Translator("samarkand", "en").ui("cardWorth")
            reloaded = True
        page.wait_for_timeout(50)
    shot(page, "10-samarkand-final")
    assert reloaded and finished(page), "Samarkand did not finish in time"
    assert revealed, "no turn on the phone to expand a family"
    page.wait_for_selector("table.sk-final")
    assert page.locator("table.sk-final tbody tr").count() == 3
    shot(page, "10-samarkand-final")


def test_grand_bazaar_says_why_a_trade_is_closed_and_ends_with_its_final_table(live_server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    create_table(page, live_server, "Ann", ["human", "bot:greedy"], game="grand_bazaar")
    page.wait_for_selector(".gb-prompt:has-text('buy at least one gem')")
    closed = page.locator("[data-move='sell ruby'][disabled]")
    assert closed.get_attribute("title") == "you hold no ruby"  # said in words, in place
    assert page.locator(".gb-track").count() == 3 and page.locator(".gb-card").count() == 27
    assert page.evaluate("document.documentElement.scrollWidth") <= 391, "the board fits a phone"
    shot(page, "11-grand-bazaar-phone")
    deadline = time.time() + 240
    midway = None  # the live log's lines and their move numbers, part way through the game
    while time.time() < deadline and not finished(page):
        if page.locator(".banner:has-text('Your turn')").count():
            if midway is None and page.locator(".log li[value]").count() >= 12:
                midway = page.locator(".log li").evaluate_all(LOG_NUMBERS)
                shot(page, "11-grand-bazaar-live-log-numbered")
            any(try_click(page, selector) for selector in SIMPLE_PLAY["grand_bazaar"])
        page.wait_for_timeout(50)
    assert finished(page)
    # the live log numbered each line by the move that wrote it, as the replay numbers it ("move 12")
    assert midway, "the live log was never numbered"
    table_id = page.url.rsplit("/", 1)[1]
    replayed = httpx.get(f"{live_server}/api/tables/{table_id}/replay?upto=100000&seat=0").json()["log_moves"]
    assert [number for _, number in midway] == replayed[: len(midway)], midway
    assert all(shown == (str(n) if n else None) for shown, n in midway), "each numbered line shows its number"
    final = page.locator("table.gb-final")
    assert final.locator("tbody tr").count() == 2 and "× 10 =" in final.inner_text()
    # every card is revealed, and still readable: no line across its signs ("−−−" would become one bar)
    struck = page.locator(".gb-revealed").evaluate_all(
        "cards => cards.map(card => getComputedStyle(card).textDecorationLine)"
    )
    assert struck == ["none"] * 27, struck
    assert "expected change" not in page.inner_text(".grand-bazaar"), "a change expected with no card to come"
    finished_url = page.url
    page.click("#rematch")  # the same game again, from the end screen
    page.wait_for_function(f"location.href !== {finished_url!r}")
    page.wait_for_selector(".gb-prompt:has-text('buy at least one gem')")


def test_the_page_never_scrolls_by_itself_and_the_tab_title_says_your_turn(live_server, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:greedy"], game="grand_bazaar")
    mine = ".table-head .banner:has-text('Your turn')"
    page.wait_for_selector(mine)
    assert page.title().startswith("● Your turn")
    for _ in range(3):  # three turns: the bots move in between and the log grows
        deadline = time.time() + 20
        while page.locator(mine).count() and time.time() < deadline:  # trade until the turn is over
            any(try_click(page, f".grand-bazaar {selector}") for selector in SIMPLE_PLAY["grand_bazaar"])
        # a click scrolls its button into view (Playwright does, as a person would): back to the top, then
        # the bots' moves redraw the page until it is this seat's turn again
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_selector(mine, timeout=20_000)
        assert page.evaluate("window.scrollY") == 0, "a redraw scrolled the page"
    box = page.locator(".log")
    assert box.evaluate("b => b.scrollHeight - b.scrollTop - b.clientHeight") <= 2  # the newest line shows
    # whole, below the log's heading, and still when its lines wrap anew (a narrower phone: it was cut)
    for width in (390, 320):
        page.set_viewport_size({"width": width, "height": 844})
        page.wait_for_function(f"({LAST_LINE_WHOLE})()", timeout=5000)


# each live log line's move number (0: the deal's, before the first move) and the number its list shows
LOG_NUMBERS = "lis => lis.map(li => [li.getAttribute('value'), Number(li.dataset.moveNumber)])"

# the log's newest line lies whole inside its box, below the box's (sticky) heading
LAST_LINE_WHOLE = """() => {
  const box = document.querySelector('.log');
  const last = [...box.querySelectorAll('li')].pop();
  if (!last) return false;
  const frame = box.getBoundingClientRect(), line = last.getBoundingClientRect();
  const heading = box.querySelector('h3').getBoundingClientRect();
  return line.top >= heading.bottom - 1 && line.bottom <= frame.top + box.clientTop + box.clientHeight + 1;
}"""


def test_keyboard_focus_stays_on_the_control_after_a_move(live_server, browser):
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    create_table(page, live_server, "Ann", ["human", "bot:greedy", "bot:greedy"], game="grand_bazaar")
    page.wait_for_selector(".grand-bazaar [data-move='buy ruby']:not([disabled])")
    page.focus(".grand-bazaar [data-move='buy ruby']")
    page.keyboard.press("Enter")
    page.wait_for_selector(".gb-prompt:has-text('You have bought')")
    assert page.evaluate("document.activeElement.dataset.move") == "buy ruby"


def test_the_turn_clock_counts_down_on_the_page(live_server, browser):
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(live_server + "/")
    page.select_option("#game", "grand_bazaar")
    page.dispatch_event("#game", "change")
    page.fill("#name", "Ann")
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    labels = page.locator("select[data-seat='1'] option").all_inner_texts()
    assert "Hard bot" in labels and "speculator (bot, for scripts)" not in labels  # folded away at first
    show_other_bots(page)
    labels = page.locator("select[data-seat='1'] optgroup option").all_inner_texts()
    assert "speculator (bot, for scripts)" in labels  # a game's own bot, in words
    page.select_option("select[data-seat='1']", "bot:greedy")
    page.fill("#turn-seconds", "60")
    page.click("#create button[type=submit]")
    banner = page.locator(".table-head .banner")
    page.wait_for_selector(".table-head .banner:has-text('s left')")
    first = int(re.search(r"(\d+) s left", banner.inner_text()).group(1))
    page.wait_for_timeout(2500)
    later = int(re.search(r"(\d+) s left", banner.inner_text()).group(1))
    assert 50 <= first <= 60 and first - 4 <= later <= first - 1  # it ticks between the server's messages


# a deal whose first hint is a whole bid with a card taken back on the way (seed 7's hint only adds a card
# and takes it back, leaving the bid empty and the same hint to come again: noted for bots/analysis.py)
HINTED_DEAL = 8


def test_a_hinted_move_played_to_the_letter_is_not_marked_by_the_analysis(live_server, browser, monkeypatch):
    """Issue 28: a person asks for a hint, plays exactly the hinted whole move (a sealed Money bid, card by
    card), lets bots finish the game, opens the analysis and finds that move not marked a mistake or a
    blunder (the hint and the analysis search alike at the same settings: the live server's quick config
    for both). The analysis panel is looked at on a desktop and a phone; the second visit is shown the
    analysis the first one asked for, without asking again (it is stored with the game)."""
    monkeypatch.setattr("merchantry.server.tables.secrets.randbits", lambda bits: HINTED_DEAL)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
    created = httpx.post(
        live_server + "/api/tables",
        json={"game": "money", "players": 3, "seats": seats, "name": "Ann", "options": {"max_rounds": 2}},
    ).json()
    tid, token, host = created["id"], created["token"], created["host_token"]
    mine = {"X-Seat-Token": token}
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.goto(live_server + "/")
    held = {"seat": 0, "token": token, "host": host, "invites": []}
    page.evaluate(
        "([key, held]) => localStorage.setItem(key, JSON.stringify(held))", [f"merchantry:table:{tid}", held]
    )
    page.goto(f"{live_server}/table/{tid}")
    # the bots seal their bids first, so the position the hint is asked for is the one Ann's move starts from
    deadline = time.time() + 30
    while state_of(live_server, tid, mine)["to_act"] != [0]:
        assert time.time() < deadline, "the bots did not seal their bids"
        time.sleep(0.1)
    plans = []
    bidding = lambda view: view["phase"] == "bidding" and 0 in view["to_act"]  # noqa: E731
    while len(plans) < 6 and bidding(state_of(live_server, tid, mine)):
        page.wait_for_selector(".hint-box", state="detached")  # the last hint was for the last position
        page.click("#hint", timeout=30_000)
        box = page.wait_for_selector(".hint-box", timeout=60_000)
        assert "The hard bot would play" in box.inner_text() and "chance to win" in box.inner_text()
        # the chance is from what the seat knows now (24% before a reveal, 2% after: read as a promise)
        assert "is from what you know now" in box.inner_text()
        plans.append(page.locator(".hint-box code").all_inner_texts())
        if len(plans) == 1:
            shot(page, "12-hint")
        for step in plans[-1]:  # exactly the hinted move, step by step, as a person plays it: cards, Seal
            before = state_of(live_server, tid, mine)
            control = ".mine button.primary" if step == "bid" else f".money button[aria-label$='— {step}']"
            page.locator(control).first.click(timeout=10_000)
            while state_of(live_server, tid, mine) == before:
                time.sleep(0.05)  # the step is stored before the next card is clicked
    # the whole sealed bid, not its first card only (a hint may also end where the bid is empty again, a
    # card added and taken back: the person then asks again, and each hinted move is judged on its own)
    assert plans[-1][-1] == "bid", plans
    handed = httpx.post(
        f"{live_server}/api/tables/{tid}/seats/0/bot", json={"host_token": host, "bot": "greedy"}
    )
    assert handed.status_code == 200 or "game is over" in handed.text, handed.text
    wait_until_finished(live_server, tid, 90)
    record = httpx.get(f"{live_server}/api/tables/{tid}/record").json()
    played = [step for plan in plans for step in plan]
    assert [text for seat, text in record["moves"] if seat == 0][: len(played)] == played  # to the letter
    hinted = [", ".join(plan) for plan in plans]

    for name, size in (
        ("13-analysis", {"width": 1100, "height": 900}),
        ("14-analysis-phone", {"width": 390, "height": 844}),
    ):
        viewer = browser.new_context(viewport=size).new_page()
        viewer.goto(f"{live_server}/replay/{tid}")
        if name == "13-analysis":
            viewer.click("#analyse")
        viewer.wait_for_selector("#analysis .analysis-summary", timeout=120_000)
        assert viewer.locator("#analysis svg.chance-chart polyline").count() == 3  # one line per seat
        assert viewer.locator("#analysis svg.chance-chart polygon.chance-band").count() == 3  # its interval
        # each seat's line is its own chance at its own decisions, before and after each (y read off the 0%
        # and 100% lines): the chances the marks table quotes, not another seat's estimate of it
        lines = viewer.locator("#analysis svg.chance-chart polyline").evaluate_all(
            "ls => ls.map(l => l.getAttribute('points').split(' ').map(p => p.split(',').map(Number)))"
        )
        nought, whole = (
            float(viewer.locator(f".chance-line[data-level='{level}']").get_attribute("y1"))
            for level in (0, 1)
        )
        analysed = httpx.get(f"{live_server}/api/tables/{tid}/analysis").json()
        decisions = analysed["decisions"]
        final = httpx.get(f"{live_server}/api/tables/{tid}/record").json()
        assert analysed["result"] == win_shares(records.replay(final).winners(), 3)
        for seat, line in enumerate(lines):
            drawn = [round((nought - y) / (nought - whole), 2) for _, y in line]
            mine = [d for d in decisions if d["seat"] == seat]
            judged = [round(c, 2) for d in mine for c in (d["before"], d["after"])]
            result = analysed["result"][seat]
            if mine[-1]["move"] < analysed["total"] or mine[-1]["after"] != result:
                judged.append(result)  # and the line ends at the seat's share of the win
            assert drawn == pytest.approx(judged, abs=0.011), f"P{seat + 1}'s line is not its own chances"
            assert [x for x, _ in line] == sorted(x for x, _ in line)  # drawn left to right, move by move
        assert "the lines need not add up to 100%" in viewer.inner_text("#analysis figcaption")
        # no label of the chart covers another: the rounds' ("R1") stay clear of the chances' ("100%")
        boxes = viewer.locator("svg.chance-chart text").evaluate_all(
            "ts => ts.map(t => { const b = t.getBoundingClientRect();"
            " return [t.textContent, b.left, b.top, b.right, b.bottom]; })"
        )
        for i, (a, *one) in enumerate(boxes):
            for b, *other in boxes[i + 1 :]:
                apart = one[2] <= other[0] or other[2] <= one[0] or one[3] <= other[1] or other[3] <= one[1]
                assert apart, f"{a!r} and {b!r} overlap on the chart at {size['width']} px"
        summary = viewer.inner_text(".analysis-summary")
        assert "Decisions" in summary and "Blunders" in summary
        # the mean loss with its 95% interval in plain words, as the analysis worked it out: "2.4 (likely
        # between 0.4 and 4.3)"
        for row in judged_summary(live_server, tid):
            low, high = (f"{100 * x:.1f}" for x in row["mean_loss_interval"])
            cell = viewer.locator(".analysis-summary .mean-loss").nth(row["seat"]).inner_text()
            assert cell == f"{100 * row['mean_loss']:.1f} (likely between {low} and {high})", cell
        said = viewer.inner_text("#analysis")
        assert "the whole range it likely lies in is above 0" in said  # the rule, said
        assert "the range its chance likely lies in" in said  # the chart's band, said
        assert "interval" not in said
        for row in viewer.locator(".analysis-marks tbody tr").all():
            cells = row.locator("td").all_inner_texts()
            played = row.locator("td:nth-child(3) .whole-move").get_attribute("data-notation")  # words shown
            assert not (played in hinted and cells[5] in ("mistake", "blunder")), cells
        ARTIFACTS.mkdir(exist_ok=True)
        viewer.locator("#analysis").screenshot(path=str(ARTIFACTS / f"{name}-panel.png"))
        shot(viewer, name)
        # every column of the marks, "Chance before → after" and "Mark" too, within the screen's width
        rights = viewer.locator(".analysis-marks td").evaluate_all(
            "ns => ns.map(n => n.getBoundingClientRect().right)"
        )
        assert not rights or max(rights) <= size["width"], f"a column is cut at {max(rights)} px"
        # the summary too: its last column, "Mean loss (points)", was cut on a phone
        rights = viewer.locator(".analysis-summary th, .analysis-summary td").evaluate_all(
            "ns => ns.map(n => n.getBoundingClientRect().right)"
        )
        assert max(rights) <= size["width"], f"a summary column is cut at {max(rights)} px"
        lonely = viewer.evaluate(  # a seat's key moments one under another, no separator left on its own
            "[...document.querySelectorAll('.key-moments *')].flatMap(e => [...e.childNodes])"
            ".filter(n => n.nodeType === 3 && n.textContent.trim() === ';').length"
        )
        assert lonely == 0
        width = viewer.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"the page is {width} px wide on a {size['width']} px screen"
        if name == "13-analysis":  # a narrowed window draws the chart again to its new width
            wide = int(viewer.locator("svg.chance-chart").get_attribute("viewBox").split()[2])
            viewer.set_viewport_size({"width": 760, "height": 900})
            drawn_width = "+document.querySelector('svg.chance-chart').getAttribute('viewBox').split(' ')[2]"
            viewer.wait_for_function(f"() => {drawn_width} < {wide}")
    judged = httpx.get(f"{live_server}/api/tables/{tid}/analysis").json()
    mine_judged = [d for d in judged["decisions"] if d["seat"] == 0]
    for move in hinted:
        decision = next(d for d in mine_judged if d["played"] == move)
        assert decision["preferred"] == move and decision["mark"] not in ("mistake", "blunder"), decision


def judged_summary(base, table_id):
    return httpx.get(f"{base}/api/tables/{table_id}/analysis").json()["summary"]


def state_of(base, table_id, headers):
    return httpx.get(f"{base}/api/tables/{table_id}", headers=headers).json()["view"]

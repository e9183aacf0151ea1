"""The guided first game in a real browser: from the lobby's "Learn to play", every step's text in the page's
language (the catalogue's own words: no key left untranslated), its highlight on an element that exists
and is visible, a move the step does not ask for explained and not played, the asked move played through
the page, and at the end a bot finishing the game. One game in every language, the others in two."""

from __future__ import annotations

import json
import re

import pytest

from merchantry import games
from merchantry.bots.ismcts import SearchConfig
from merchantry.i18n import PLATFORM_LOCALES
from merchantry.package import LANGUAGES
from merchantry.server import tutorials
from merchantry.server.app import create_app
from tests.server.conftest import serving
from tests.server.test_accessibility import AXE, serious_findings
from tests.server.test_browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, REQUIRED, shot

TAUGHT = [name for name in games.names() if tutorials.has_tutorial(name)]
FULLY = TAUGHT[0]  # every language; the others share the runner, in English and one more
CASES = [(FULLY, lang) for lang in LANGUAGES] + [
    (game, lang) for i, game in enumerate(TAUGHT[1:]) for lang in ("en", LANGUAGES[1 + i % 3])
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 900}
# some of the highlighted element shows in the window, not covered by anything (the lesson's panel above all)
UNCOVERED = """n => {
  if (!n) return false;
  const r = n.getBoundingClientRect();
  const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, window.innerHeight);
  if (bottom <= top) return false;
  return [0.1, 0.3, 0.5, 0.7, 0.9].some((f) => {
    const x = (Math.max(r.left, 0) + Math.min(r.right, window.innerWidth)) / 2;  // (a wide table scrolls)
    const there = document.elementFromPoint(x, top + f * (bottom - top));
    return there !== null && (n === there || n.contains(there));
  });
}"""
WAIT_MS = 60_000  # bots move every 0.05 s in the test server; a step waits for them at most this long
# a control the person presses: a step that asks for a move rings that, not the area around it
CONTROL = "n => n instanceof SVGElement || n.matches('button, a[href], [role=button]')"
# a ringed shape of a drawing (a map's space) looks unlike every other one, those glowing as choices too
DISTINCT_SHAPE = """n => {
  const shape = (g) => g.querySelector('polygon, path, rect, circle, ellipse');
  const stroke = (g) => {
    const style = shape(g) && getComputedStyle(shape(g));
    return style ? style.stroke + style.strokeWidth : '';
  };
  const mine = stroke(n);
  return mine !== '' && [...n.parentNode.children].every((g) => g === n || stroke(g) !== mine);
}"""


# one server and one browser for the module: each lesson is its own table and its own page (own storage)
@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    quick = SearchConfig(iterations=30, rollout_depth=10)
    folder = tmp_path_factory.mktemp("lessons")
    app = create_app(
        f"sqlite:///{folder / 'web.db'}", bot_delay=0.05, hint_search=quick, analysis_search=quick
    )
    with serving(app) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def platform_words(language: str) -> dict[str, str]:
    words: dict[str, str] = json.loads((PLATFORM_LOCALES / f"{language}.json").read_text())["ui"]
    return words


def lesson_words(game: str, language: str) -> dict[str, str]:
    path = games.package(game).folder / "locales" / f"{language}.json"
    words: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))["tutorial"]
    return words


def step_count(words: dict[str, str], step: int, total: int) -> str:
    return words["tutorialStep"].replace("{{step}}", str(step)).replace("{{total}}", str(total))


def wait_for_step(page, count: str, text: str) -> None:
    page.locator("#tutorial-count", has_text=re.compile(f"^{re.escape(count)}$")).wait_for(timeout=WAIT_MS)
    page.locator("#tutorial-text", has_text=re.compile(f"^{re.escape(text)}$")).wait_for(timeout=WAIT_MS)


# the lesson took the move it asked for: it awaits the table's answer (static/tutorial.js keeps it as
# `pending`), or has gone on already
TAKEN = """count => {
  const id = location.pathname.split('/').pop();
  const progress = JSON.parse(localStorage.getItem(`merchantry:tutorial:${id}`) || '{}');
  return Boolean(progress.pending) || document.querySelector('#tutorial-count')?.textContent !== count;
}"""


def play(page, move: str, asked: bool = False) -> None:
    """Play a move through the page's own list of moves (the drawing's controls differ by game). `asked`:
    the move the step asks for, clicked again if a redraw swallowed the click (the button replaced
    under the pointer: a bot's update redraws the page at any time)."""
    count = page.locator("#tutorial-count").inner_text()
    for _ in range(20):  # an update from the server may redraw the page (and close the list) meanwhile
        page.evaluate("document.querySelector('.moves-panel').open = true")
        try:
            page.locator(f'.moves-panel button[data-move="{move}"]').click(timeout=1000)
            if asked:
                page.wait_for_function(f"({TAKEN})({json.dumps(count)})", timeout=2000)
            return
        except Exception:
            continue
    raise AssertionError(f"could not play {move!r} through the page")


def other_move(page, move: str) -> str | None:
    page.evaluate("document.querySelector('.moves-panel').open = true")
    moves = page.locator(".moves-panel button[data-move]").evaluate_all("bs => bs.map(b => b.dataset.move)")
    return next((m for m in moves if m != move), None)


@pytest.mark.parametrize(("game", "language"), CASES)
def test_the_guided_first_game_plays_to_its_end(live_server, browser, game, language):
    script = tutorials.tutorial(game)
    ui, lesson = platform_words(language), lesson_words(game, language)
    phone = language == "de" if game == FULLY else language != "en"  # a phone-sized run per game
    page = browser.new_page(viewport=PHONE if phone else DESKTOP)
    page.add_init_script(f"localStorage.setItem('merchantry:lang', '{language}')")
    page.goto(live_server + "/")
    page.locator(f"#learn-{game}").click()
    page.wait_for_selector("#tutorial", timeout=WAIT_MS)
    total = len(script["steps"])
    explained = False
    moves = [number for number, step in enumerate(script["steps"], 1) if "do" in step]
    reload_at = moves[-1] if language == "en" else None  # a reload mid-lesson resumes it at its step
    clock = re.compile(re.escape(ui["timeLeft"]).replace(re.escape("{{seconds}}"), r"\d+"))
    for number, step in enumerate(script["steps"], 1):
        wait_for_step(page, step_count(ui, number, total), lesson[step["text"]])
        if number == reload_at:
            page.reload()
            wait_for_step(page, step_count(ui, number, total), lesson[step["text"]])
        target = page.locator(".tutorial-target")
        assert target.count() == 1 and target.is_visible(), f"step {number}: nothing visible is pointed at"
        assert page.locator(step["point"]).first.evaluate("n => n.classList.contains('tutorial-target')")
        assert not clock.search(page.locator(".table-head").inner_text()), f"step {number}: a clock runs"
        if "do" in step:
            assert target.evaluate(CONTROL), f"step {number}: what it asks to press is not what it rings"
        if target.evaluate("n => n instanceof SVGElement"):
            assert target.evaluate(DISTINCT_SHAPE), f"step {number}: the ringed space looks like others"
        try:  # (asked of the page as it is drawn now: an update may have drawn it again meanwhile)
            page.wait_for_function(f"({UNCOVERED})(document.querySelector('.tutorial-target'))", timeout=3000)
        except Exception:
            page.screenshot(path=str(ARTIFACTS / f"tutorial-{game}-{language}-hidden-{number}.png"))
            raise AssertionError(f"step {number}: what it points at is hidden (under the panel?)") from None
        if number == 3:
            shot(page, f"tutorial-{game}-{language}-{'phone' if phone else 'desktop'}")
        if step.get("finish"):
            page.locator("#tutorial-bot-finish").click()
            # said calmly, in the page's language: the person chose it, and watches on
            page.locator(".toast.info", has_text=ui["botFinishesYours"]).wait_for(timeout=WAIT_MS)
            assert page.locator(".toast.error").count() == 0
        elif "do" not in step:
            page.locator("#tutorial-next").click()
        else:
            wrong = other_move(page, step["do"]) if not explained and "wrong" in step else None
            if wrong is not None:  # explained, not played: the step stays
                play(page, wrong)
                page.locator("#tutorial-notice", has_text=lesson[step["wrong"]]).wait_for()
                assert page.locator("#tutorial-count").inner_text() == step_count(ui, number, total)
                shot(page, f"tutorial-{game}-{language}-explained")
                explained = True
            play(page, step["do"], asked=True)
    wait_for_step(page, step_count(ui, total, total), lesson[script["over"]])
    assert page.locator("#tutorial-real-game").is_visible()
    assert explained, "no step explained a wrong move"
    shot(page, f"tutorial-{game}-{language}-over")
    # the person's seat stays theirs up to the move the bot took over from; bots have names a person reads
    table_id = page.url.rsplit("/", 1)[-1]
    seat = page.request.get(f"{live_server}/api/tables/{table_id}").json()["table"]["seats"][0]
    assert seat["name"] and seat["bot_from"] is not None
    bot = ui[f"seatBot_{script['bots'][0]}"]
    note = ui["botFrom"].replace("{{bot}}", bot).replace("{{move}}", str(seat["bot_from"] + 1))
    body = page.locator("body").inner_text()
    assert f"{seat['name']} ({note})" in body
    assert f"{script['bots'][0]} (bot)" not in body and bot in body
    # each move credited to who played it (the replay's and the analysis' names of a move's player)
    credited = page.evaluate(
        """async ([table, last]) => {
          const { seatName } = await import("/static/dom.js");
          return [seatName(table, 0, last), seatName(table, 0, last + 1)];
        }""",
        [page.request.get(f"{live_server}/api/tables/{table_id}").json()["table"], seat["bot_from"]],
    )
    assert credited == [f"P1 {seat['name']}", f"P1 {bot}"]
    page.context.close()


def test_the_rules_page_leads_to_the_guided_first_game(live_server, browser):
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live_server}/rules/{FULLY}?lang=fr")
    page.locator(f'a[href="/learn/{FULLY}"]', has_text=platform_words("fr")["learnToPlay"]).click()
    page.wait_for_selector("#tutorial #tutorial-next", timeout=WAIT_MS)
    assert page.url.startswith(f"{live_server}/table/")


@pytest.mark.skipif(
    not AXE.exists() and not REQUIRED, reason="axe-core is not installed (make test installs it)"
)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_guided_first_game_has_no_serious_accessibility_findings(live_server, browser, viewport):
    page = browser.new_page(viewport=viewport)
    page.goto(f"{live_server}/learn/{FULLY}")
    page.wait_for_selector("#tutorial #tutorial-next", timeout=WAIT_MS)
    page.locator("#tutorial-next").click()  # a step that points at the board
    page.wait_for_selector(".tutorial-target", timeout=WAIT_MS)
    assert serious_findings(page) == []


def test_the_lesson_can_be_followed_with_the_keyboard(live_server, browser):
    """Next takes Enter; once a step asks for a move, focus is on the control it points at (a button of
    the board), so Enter plays it."""
    script = tutorials.tutorial(FULLY)
    first_move = next(i for i, step in enumerate(script["steps"]) if "do" in step)
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{live_server}/learn/{FULLY}")
    page.wait_for_selector("#tutorial #tutorial-next", timeout=WAIT_MS)
    page.locator("#tutorial-next").focus()
    words = platform_words("en")
    for number in range(1, first_move + 1):
        page.keyboard.press("Enter")
        count = step_count(words, number + 1, len(script["steps"]))
        page.locator("#tutorial-count", has_text=re.compile(f"^{re.escape(count)}$")).wait_for()
    assert page.evaluate("document.activeElement.classList.contains('tutorial-target')")
    page.keyboard.press("Enter")
    count = step_count(words, first_move + 2, len(script["steps"]))
    page.locator("#tutorial-count", has_text=re.compile(f"^{re.escape(count)}$")).wait_for(timeout=WAIT_MS)

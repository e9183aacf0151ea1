"""Guided first games (server/tutorials.py, static/tutorial.js): every game's script is one the runner can
follow, in every language, and its course is pinned: the fixed deal and the bots' fixed stream give the same
game whatever the order in which the person's steps and the bots' reach the server."""

from __future__ import annotations

import json
import random
import re

import pytest
from fastapi.testclient import TestClient

from merchantry import bots, games
from merchantry.bots.levels import LEVELS
from merchantry.i18n import PLATFORM_LOCALES
from merchantry.package import LANGUAGES
from merchantry.server import tutorials
from merchantry.server.app import create_app
from merchantry.server.db import open_database
from merchantry.server.tables import TableService

TAUGHT = [name for name in games.names() if tutorials.has_tutorial(name)]


def catalogue(game: str, language: str) -> dict[str, str]:
    path = games.package(game).folder / "locales" / f"{language}.json"
    section: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))["tutorial"]
    return section


@pytest.fixture
def service(tmp_path):
    return TableService(
        open_database(f"sqlite:///{tmp_path / 'merchantry.db'}"),
        unseen_answer_seconds=0.0,
        unseen_window_seconds=0.0,
    )


def test_every_game_has_a_guided_first_game():
    assert games.names() == TAUGHT


@pytest.mark.parametrize("game", TAUGHT)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_step_reads_in_every_language(game, language):
    script = tutorials.tutorial(game)
    texts = catalogue(game, language)
    missing = tutorials.text_keys(script) - set(texts)
    assert not missing, f"{game}/{language}: no text for {sorted(missing)}"
    if language != "en":  # translated, not copied
        english = catalogue(game, "en")
        same = [k for k in tutorials.text_keys(script) if texts[k] == english[k] and len(english[k]) > 20]
        assert not same, f"{game}/{language}: English text in {same}"


def create(service: TableService, game: str) -> str:
    created = service.create(game, name="Ann", **tutorials.lesson_table(game, tutorials.tutorial(game)))
    return str(created["id"])


def person_move(live, rng: random.Random) -> str:
    """The person's move on a free stretch of the lesson: the greedy bot's (any move would do)."""
    bot = bots.get("greedy", live.game)
    return str(bot.choose(live.state.sample_hidden(0, rng), 0, rng))


def wait_for_person(service: TableService, table_id: str, ready, person_first: bool, what: str) -> None:
    """Let the bots move until `ready(live)` (or, where the person may act as well as a bot and
    `person_first`, at once)."""
    for _ in range(2000):
        live = service.table(table_id)
        if ready(live) and (person_first or not live.answered_by_server()):
            return
        assert service.bot_move(table_id), f"{what} never came"


def walk(service: TableService, game: str, person_first: bool) -> tuple[list[object], list[str]]:
    """Play the lesson as its steps ask (the bots' moves in between, or, where the person may act as well
    as a bot, the person's first): a step's moves as it names them, a free stretch with the greedy bot's
    moves until its moment comes. The public log, and the text of every step shown before the end."""
    table_id = create(service, game)
    script = tutorials.tutorial(game)
    rng = random.Random(0)
    shown = []
    for number, step in enumerate(script["steps"], 1):
        live = service.table(table_id)
        if live.state.is_over():
            break
        shown.append(step["text"])
        if "until" in step:
            while not live.state.is_over() and not tutorials.reached(live.state.view(0), step["until"]):
                if 0 in live.state.to_act() and not live.answered_by_server():
                    service.act(table_id, 0, person_move(live, rng))
                else:
                    assert service.bot_move(table_id), f"step {number}: the game stalls"
                live = service.table(table_id)
            continue
        for move in tutorials.moves_asked(step):
            wait_for_person(
                service,
                table_id,
                lambda live, move=move: (
                    move in map(str, live.state.legal_actions(0)) and 0 in live.state.to_act()
                ),
                person_first,
                f"step {number}: {move!r}",
            )
            service.act(table_id, 0, move)
    live = service.table(table_id)
    assert live.status == "finished" and live.state.is_over(), "the lesson's last step comes before the end"
    return list(live.state.view(None)["log"]), shown


def host_token(service: TableService, table_id: str) -> str:
    """Tests only: make the host token known by setting a new one (the real one is hashed)."""
    from merchantry.server.db import TableRow, token_hash

    with service.sessions() as db:
        row = db.get(TableRow, table_id)
        assert row is not None
        row.host_token_hash = token_hash("host")
        db.commit()
    return "host"


@pytest.mark.parametrize("game", TAUGHT)
def test_the_course_is_pinned_whoever_moves_first_and_every_step_comes_before_the_end(service, game):
    """The lesson guides the whole game: every step, the moments of its free stretches too (the round's end,
    the last round, the final sales), is reached before the game ends, which ends the lesson."""
    log, shown = walk(service, game, person_first=False)
    assert (log, shown) == walk(service, game, person_first=True)
    assert shown == [step["text"] for step in tutorials.tutorial(game)["steps"]]


@pytest.mark.parametrize("game", TAUGHT)
def test_a_lesson_plays_the_standard_game_so_the_page_has_no_variant_to_explain(game):
    """A lesson deals the game as its rules page describes it: no option changed, so the table shows no
    variants line (Money's lesson was shortened to six rounds, and the page read "rounds at most: 6
    (standard: 60)" to a newcomer)."""
    assert tutorials.tutorial(game).get("options", {}) == {}


def test_the_money_lessons_line_wins_when_followed(service):
    """The lesson teaches a line that works: following its steps (a bid of a currency not collected, small
    bids that choose last from what the others paid) and playing the free rounds as the greedy bot would,
    the person finishes first (the old deal's line ended 380 against a bot's 600).
    benchmarks/tutorial_line.py measures it against every bot's play and the hint's chance."""
    log, _ = walk(service, "money", person_first=False)
    (scores,) = [event["scores"] for event in log if event["type"] == "deal_scored"]
    assert scores[0] == max(scores) and scores.count(scores[0]) == 1, scores


def deal_of(service: TableService, table_id: str) -> tuple[int, str]:
    live = service.table(table_id)
    return live.session.seed, live.bot_secret


def test_a_tutorial_table_over_the_api(tmp_path):
    """POST /api/tutorials/<game> deals the fixed game with the person in the first seat; the payload
    says it is a tutorial; a game without one is a 404; the rules page links to it."""
    game = TAUGHT[0]
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0)) as client:
        script = client.get(f"/api/tutorials/{game}").json()
        assert script["steps"] == tutorials.tutorial(game)["steps"]
        first = client.post(f"/api/tutorials/{game}", json={"name": "Ann"}).json()
        second = client.post(f"/api/tutorials/{game}", json={"name": "Bo"}).json()
        views = [
            client.get(f"/api/tables/{t['id']}", headers={"X-Seat-Token": t["token"]}).json()
            for t in (first, second)
        ]
        assert first["seat"] == 0 and views[0]["table"]["tutorial"] is True
        service, in_database = client.app.state.service, client.app.state.in_database
        deals = [in_database(deal_of, service, t["id"]) for t in (first, second)]
        assert deals[0] == deals[1] == tutorials.seed_and_secret(game, script), "one deal, one bot stream"
        assert [s["kind"] for s in views[0]["table"]["seats"]] == ["human"] + ["bot"] * len(script["bots"])
        # its bots are named by the lobby's level they play at (the page says "Easy bot"), in its lists too
        assert script["level"] in LEVELS
        assert [s.get("level") for s in views[0]["table"]["seats"]] == [None] + [script["level"]] * len(
            script["bots"]
        )
        listed_seats = [t["seats"] for t in client.get("/api/tables").json() if t["id"] == first["id"]]
        assert [s.get("level") for s in listed_seats[0]][1:] == [script["level"]] * len(script["bots"])
        assert client.get(f"/api/tables/{first['id']}/ratings").json()["seats"] == {}  # a lesson is not rated
        assert client.post("/api/tutorials/nosuchgame", json={"name": "Ann"}).status_code == 404
        assert client.get(f"/rules/{game}?lang=de").text.count(f'href="/learn/{game}">Spielen lernen<') == 1
        listed = {g["name"]: g["tutorial"] for g in client.get("/api/games").json()}
        assert listed[game] is True


def test_a_lesson_left_to_a_bot_finishes_quickly(service):
    """While the person plays, bots keep the table's pace; once the person leaves their seat to a bot,
    nobody follows the game and its deal is no secret: a tenth of a second between moves."""
    game = TAUGHT[0]
    table_id = create(service, game)
    assert service.table(table_id).publishing_pause(0.8, 0.0) >= 0.8
    service.hand_to_bot(table_id, host_token(service, table_id), 0, "greedy")
    assert service.table(table_id).publishing_pause(0.8, 0.0) <= 0.1


def walk_to(service: TableService, table_id: str, game: str, last: str) -> None:
    """Play the lesson's moves up to and without the step whose text is `last` (bots in between)."""
    for step in tutorials.tutorial(game)["steps"]:
        for _ in range(500):
            live = service.table(table_id)
            if 0 in live.state.to_act() and not live.answered_by_server():
                break
            assert service.bot_move(table_id)
        if step["text"] == last:
            return
        for move in tutorials.moves_asked(step):
            service.act(table_id, 0, move)
    raise AssertionError(f"no step {last!r}")


def money_words(language: str) -> dict[str, str]:
    path = games.package("money").folder / "locales" / f"{language}.json"
    words: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))["ui"]
    return words


@pytest.mark.parametrize("language", LANGUAGES)
def test_mo_e3_e4_the_money_lesson_says_what_scores(language):
    """MO-E3: below 200 a currency scores 100 less, never below 0 (the welcome said it simply "loses 100");
    MO-E4: a trio (all three 20s or all three 30s) is worth 100 more, taught where the person's take brings
    a second USD 20 (it was never taught)."""
    script = tutorials.tutorial("money")
    texts = catalogue("money", language)
    welcome = texts[script["steps"][0]["text"]]
    assert all(re.search(rf"(?<!\d){n}(?!\d)", welcome) for n in ("200", "100", "0")), welcome
    trio = money_words(language)["trios_one"].replace("{{count}}", "").strip().lower()
    taught = [s["text"] for s in script["steps"] if trio in texts[s["text"]].lower()]
    assert taught, f"no step of the Money lesson names the {trio}"
    assert all("20" in texts[k] and "30" in texts[k] and "100" in texts[k] for k in taught)


def test_a_lesson_runs_no_clock(service):
    """At a guided first game nothing answers for the person when a step whose answers are unseen waits for
    them (a sale offer), however long they take, and the payload shows no clock: a lesson is read at the
    person's pace (it had the 30 s of a table with strangers)."""
    game = "samarkand"
    table_id = create(service, game)
    walk_to(service, table_id, game, "keep")
    live = service.table(table_id)
    assert live.state.answers_unseen() and "keep" in map(str, live.state.legal_actions(0))
    later = 10**6  # seconds: long after any clock would have run out
    assert not service.answer_for_the_absent(table_id, later)
    assert not live.server_has_work()  # no bot loop waits on them either: their answer starts it again
    assert service.payload(table_id, 0)["table"]["clock"] == {}
    service.act(table_id, 0, "keep")
    assert service.table(table_id).server_has_work()


def test_a_lesson_a_bot_finished_keeps_the_persons_name_and_moves(service):
    """Letting a bot finish ("Let a bot finish for me"): the seat keeps the person's name with the number
    of moves played before the bot took over (the moves up to there are the person's in the replay and the
    analysis); a seat nobody had sat at gets no such note."""
    game = TAUGHT[0]
    table_id = create(service, game)
    walk_to(service, table_id, game, tutorials.tutorial(game)["steps"][-1]["text"])
    played = len(service.table(table_id).session.moves)
    moves = service.table(table_id).session.moves
    person = [number for number, (mover, _) in enumerate(moves, 1) if mover == 0]
    service.hand_to_bot(table_id, host_token(service, table_id), 0, "greedy")
    seat = service.payload(table_id, None)["table"]["seats"][0]
    assert (seat["kind"], seat["bot"], seat["name"], seat["bot_from"]) == ("bot", "greedy", "Ann", played)
    assert person and max(person) <= played  # every move of the person's is within the first bot_from
    bots_own = service.payload(table_id, None)["table"]["seats"][1]
    assert bots_own["bot_from"] is None and bots_own["name"] is None


@pytest.mark.parametrize("game", TAUGHT)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_staged_decisions_step_says_how_it_is_made(game, language):
    """A step asking for a decision staged on the page (Byzanz's bid: cards onto the bid, then Bid) names
    the button that sends it, as the page labels it (the lesson's steps once asked for each card as a move of
    its own, sent at once)."""
    path = games.package(game).folder / "locales" / f"{language}.json"
    ui: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))["ui"]
    texts = catalogue(game, language)
    staged = [s for s in tutorials.tutorial(game)["steps"] if isinstance(s.get("do"), list)]
    for step in staged:
        button = ui[f"move_{tutorials.moves_asked(step)[-1]}"]
        assert button in texts[step["text"]], f"{game}/{language} {step['text']}: no {button!r}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_bz_a7_the_lessons_lot_step_names_every_card_it_keeps(service, language):
    """BZ-A7: the winner puts one lot card into the market and takes the rest; the step that asks for it
    names every card kept, by the names the page shows (it named the olives and the merchant, not the
    two spices that go into the hand as well)."""
    table_id = create(service, "byzanz")
    walk_to(service, table_id, "byzanz", "lotCard")
    (step,) = [s for s in tutorials.tutorial("byzanz")["steps"] if s["text"] == "lotCard"]
    lot = list(service.table(table_id).state.view(0)["lot"])
    lot.remove(step["do"].removeprefix("market "))
    path = games.package("byzanz").folder / "locales" / f"{language}.json"
    names = json.loads(path.read_text(encoding="utf-8"))["term"]
    text = catalogue("byzanz", language)["lotCard"].lower()
    assert len(lot) == 5
    for card in lot:
        kind, value = card.rstrip("0123456789"), card.lstrip("abcdefghijklmnopqrstuvwxyz")
        name = f"{names[kind]} {value}".strip()  # as a card reads on the page: its good, its value
        assert name.lower() in text, f"{language}: {name!r} is not named"


WHY = {"en": "why", "de": "warum", "pt": "porquê", "fr": "pourquoi"}


@pytest.mark.parametrize("game", TAUGHT)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_step_promises_of_the_hint_only_what_it_shows(game, language):
    """The hint shows a move and the seat's chance to win with it (static/app.js, hintBox), no reason:
    a step that names the Hint button says no more ("Hint suggests a move and says why" was not true)."""
    platform = json.loads((PLATFORM_LOCALES / f"{language}.json").read_text(encoding="utf-8"))["ui"]
    texts = catalogue(game, language)
    naming = [k for k in tutorials.text_keys(tutorials.tutorial(game)) if platform["hint"] in texts[k]]
    assert naming, f"{game}/{language}: no step names {platform['hint']!r}"
    for key in naming:
        assert WHY[language] not in texts[key].lower(), f"{game}/{language} {key}: {texts[key]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_bz_m1_the_lessons_market_step_says_what_the_others_took_before_it_shows(service, language):
    """BZ-M1: players take from the market in ascending order of their offer cards; the person, holding
    the 6, takes last, so by the time the lesson's market step shows the bots have taken already. The step
    says so, and what each took, in every language (it said "Now everyone takes...": already done)."""
    table_id = create(service, "byzanz")
    walk_to(service, table_id, "byzanz", "sell")
    view = service.table(table_id).state.view(0)
    market = max(i for i, e in enumerate(view["log"]) if e["type"] == "market")
    picks = [e for e in view["log"][market:] if e["type"] == "market_pick"]
    assert picks and all(e["seat"] != 0 for e in picks), "the others took before the person's turn"
    path = games.package("byzanz").folder / "locales" / f"{language}.json"
    names = json.loads(path.read_text(encoding="utf-8"))["term"]
    text = catalogue("byzanz", language)["sell"]
    labels = [f"P{e['seat'] + 1}" for e in picks]
    at = [text.index(label) for label in labels]  # each bot named, in the order they took
    assert at == sorted(at), text
    for pick, start, end in zip(picks, at, [*at[1:], text.index(".", at[-1])], strict=True):
        said = text[start:end].lower()
        for card in pick["cards"]:
            kind, value = card.rstrip("0123456789"), card.lstrip("abcdefghijklmnopqrstuvwxyz")
            name = f"{names[kind]} {value}".strip().lower()
            assert name in said, f"{language}: P{pick['seat'] + 1}'s {name!r} is not named in {said!r}"


@pytest.mark.parametrize("game", TAUGHT)
def test_the_hint_proposes_what_each_step_of_the_lesson_asks(service, game):
    """A lesson's step and the Hint button never contradict each other: where a step asks for a move, the
    hint proposes the rest of that step's moves (Grand Bazaar's step 9 said "buy a sapphire" while the hint,
    searched, proposed to sell one); once the person plays on their own, the hint is the search's again."""
    from merchantry.bots.analysis import hint

    table_id = create(service, game)
    script = tutorials.tutorial(game)
    for step in tutorials.scripted(script):
        for done, move in enumerate(step):
            wait_for_person(
                service,
                table_id,
                lambda live, move=move: move in map(str, live.state.legal_actions(0)),
                False,
                move,
            )
            asked = service.lesson_asks(table_id, 0)
            assert asked == step[done:], f"{game}: the lesson asks {step[done:]}, the hint would say {asked}"
            advice = hint(service.table(table_id).state.clone(), 0, game, worlds=2, taught=asked)
            assert advice.plan == asked and advice.best == move
            assert advice.taught, "the page says it is the lesson's move, not the hard bot's"
            service.act(table_id, 0, move)
    assert service.lesson_asks(table_id, 0) is None
    # and the analysis knows them: every move the lesson asked for, and only the person's
    moves = service.table(table_id).session.moves
    taught = tutorials.taught_moves(script, moves)
    assert len(taught) == sum(len(step) for step in tutorials.scripted(script))
    assert all(moves[number - 1][0] == 0 for number in taught)


def test_a_lessons_analysis_shows_the_moves_it_asked_for_unmarked():
    """Issue 32, fifteenth pass: the analysis of a guided first game marked two moves the lesson had asked
    for ("imprécision", "erreur"), where its hint had called the lesson's move the hard bot's. A decision
    made of the lesson's moves keeps its chances (the chart) and has no mark, in the marks, the summary
    and the key moments alike."""
    from merchantry.bots.analysis import Decision
    from merchantry.server.app import Analysis
    from merchantry.server.work import decision_body

    def decision(moves: list[int], mark: str) -> dict:
        judged = Decision(
            moves[-1], moves, 0, "a", "b", 0.6, 0.3, 0.6, mark, (0.2, 0.4), (0.5, 0.7), (0.2, 0.4), [0.3, 0.7]
        )
        return decision_body(judged)

    job = Analysis(
        total=9, status="done", done=9, decisions=[decision([2, 3], "blunder"), decision([7], "mistake")]
    )
    body = job.to_dict([0.0, 1.0], taught={2, 3})
    assert [(d["mark"], d.get("taught", False)) for d in body["decisions"]] == [
        (None, True),
        ("mistake", False),
    ]
    assert (body["summary"][0]["blunder"], body["summary"][0]["mistake"]) == (0, 1)
    # nor counted: one decision judged, its loss the mean (a lesson's moves made a newcomer's mean loss)
    assert body["summary"][0]["decisions"] == 1
    assert body["summary"][0]["mean_loss"] == pytest.approx(0.3)
    assert [moment["move"] for moment in body["moments"][0]] == [7]
    elsewhere = job.to_dict([0.0, 1.0])  # at any other table, marked as judged
    assert elsewhere["decisions"][0]["mark"] == "blunder"
    assert [moment["move"] for moment in elsewhere["moments"][0]] == [2, 7]


def test_grand_bazaars_ninth_step_and_its_hint_agree_over_the_api(tmp_path):
    """The newcomer's case, as the page asks for it: at Grand Bazaar's step 9 ("sapphires are down to 8:
    buy one more") the Hint button proposed "sell sapphire"; it now proposes the step's move."""
    import time

    game = "grand_bazaar"
    steps = tutorials.tutorial(game)["steps"]
    assert steps[8]["text"] == "buyCheaper" and steps[8]["do"] == "buy sapphire"
    before = [move for step in steps[:8] for move in tutorials.moves_asked(step)]
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0)) as client:
        table = client.post(f"/api/tutorials/{game}", json={"name": "Ann"}).json()
        url, seat = f"/api/tables/{table['id']}", {"X-Seat-Token": table["token"]}

        def my_turn() -> bool:
            for _ in range(400):
                view = client.get(url, headers=seat).json()["view"]
                if 0 in view["to_act"]:
                    return True
                time.sleep(0.02)
            return False

        for move in before:
            assert my_turn()
            assert client.post(f"{url}/act", json={"action": move}, headers=seat).status_code == 200
        assert my_turn()
        advice = client.post(f"{url}/hint", headers=seat).json()
        assert advice["plan"] == ["buy sapphire"]
        assert 0 <= advice["low"] <= advice["chance"] <= advice["high"] <= 1

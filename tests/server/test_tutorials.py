"""Guided first games (server/tutorials.py, static/tutorial.js): every game's script is one the runner can
follow, in every language, and its course is pinned: the fixed deal and the bots' fixed stream give the same
game whatever the order in which the person's steps and the bots' reach the server."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from merchantry import games
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
    script = tutorials.tutorial(game)
    seats = tutorials.seats(script)
    created = service.create(
        game,
        len(seats),
        dict(script.get("options", {})),
        seats,
        "Ann",
        tutorial=tutorials.seed_and_secret(game, script),
    )
    return str(created["id"])


def walk(service: TableService, game: str, person_first: bool) -> list[object]:
    """Play the lesson's moves as its steps ask (the bots' moves in between, or, where the person may act
    as well as a bot, the person's first), then let a bot finish the person's seat; the public log."""
    table_id = create(service, game)
    script = tutorials.tutorial(game)
    for number, step in enumerate(script["steps"], 1):
        if "do" not in step:
            continue
        for _ in range(500):
            live = service.table(table_id)
            legal = [str(a) for a in live.state.legal_actions(0)]
            awaited = step["do"] in legal and 0 in live.state.to_act()  # (as static/tutorial.js awaits it)
            if awaited and (person_first or not live.answered_by_server()):
                break
            assert service.bot_move(table_id), f"step {number}: {step['do']!r} never became legal ({legal})"
        service.act(table_id, 0, step["do"])
    assert service.table(table_id).status == "playing", "the lesson ends before the game does"
    service.hand_to_bot(table_id, host_token(service, table_id), 0, script["bots"][0])
    for _ in range(5000):
        if not service.bot_move(table_id):
            break
    live = service.table(table_id)
    assert live.status == "finished" and live.state.is_over()
    return list(live.state.view(None)["log"])


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
def test_the_course_is_pinned_whoever_moves_first(service, game):
    assert walk(service, game, person_first=False) == walk(service, game, person_first=True)


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

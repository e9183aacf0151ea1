"""Guided first games: a fixed deal against bots, taught step by step in the browser (static/tutorial.js).

A game that has one keeps it in its folder as `tutorial.json`:

    {"players": 3, "seed": 7, "options": {...}, "bots": ["greedy", "greedy"], "level": "easy",
     "steps": [{"text": "welcome", "point": ".some .selector"},
               {"text": "firstBid", "point": "...", "do": "a move in text notation", "wrong": "whyNotThat"},
               {"text": "stagedBid", "point": ["...", "..."], "do": ["add card", "bid"], "wrong": "..."},
               {"text": "playOn", "point": "#hint", "until": {"round": 3}},
               {"text": "roundThree", "point": "..."},
               {"text": "toTheEnd", "point": "#hint", "until": {"log": "game_over"}}],
     "over": "wellDone"}

The person sits in the first seat, the bots in the others. Each step's `text` (and `wrong`, what a move the
step does not ask for is told, and `over`, the words at the end) is a key of the catalogue's `tutorial`
section in the game's `locales/<lang>.json`; `point` is the element of the page the step is about; a step
with `do` goes on when the person plays that move (a list: the moves of one decision the page sends together,
such as the cards of a bid staged on the page and then Bid), one without it when they press Next; `point` may
list several selectors, the first the page shows is pointed at. A step with `until` lets the person play on
their own (or leave the rest to a bot) until the table reaches a moment: every condition holds, a number
being reached by the view's field of that name, `log` naming an event type logged, any other value equalled
(static/tutorial.js, `reached`); the next step then explains the moment. The end of the game ends the lesson
with the `over` text, whatever step it is at. A `finish` step offers to let a bot play the rest. The seed and
the bots' secret are the tutorial's, so every table of it deals the same cards and its bots (deterministic
ones, such as greedy) play the course its steps describe. `level` is the lobby's level the lesson's bots are
named by at its table ("Easy bot"), so a newcomer meets the names the lobby offers: greedy plays easy's game
(easy keeps greedy's move unless a glance of 15 playouts finds one clearly better, bots/levels.py), without
its chance, so the lesson's course stays the same.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

from merchantry import games
from merchantry.bots.levels import LEVELS

FILE = "tutorial.json"


class BadTutorial(ValueError):
    """A game's tutorial.json that the runner could not follow."""


def has_tutorial(game: str) -> bool:
    return game in games.names() and games.package(game).file(FILE) is not None


@cache
def tutorial(game: str) -> dict[str, Any]:
    """The game's guided first game, checked; KeyError when it has none."""
    if not has_tutorial(game):
        raise KeyError(game)
    path = games.package(game).file(FILE)
    assert path is not None
    script: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    check(game, script)
    return script


def check(game: str, script: dict[str, Any]) -> None:
    """Refuse a script the runner could not follow (say which part is wrong)."""
    info = games.get(game)
    players = script.get("players")
    if not isinstance(players, int) or not info.min_players <= players <= info.max_players:
        raise BadTutorial(f"{game}: players must be {info.min_players}..{info.max_players}")
    if not isinstance(script.get("seed"), int):
        raise BadTutorial(f"{game}: the seed must be an integer")
    if len(script.get("bots", [])) != players - 1:
        raise BadTutorial(f"{game}: one bot per seat after the first ({players - 1})")
    if script.get("level") not in LEVELS:
        raise BadTutorial(f"{game}: its bots' level must be one of {', '.join(LEVELS)}")
    steps = script.get("steps")
    if not isinstance(steps, list) or not steps:
        raise BadTutorial(f"{game}: no steps")
    for number, step in enumerate(steps, 1):
        if not isinstance(step.get("text"), str):
            raise BadTutorial(f"{game}: step {number} has no text key")
        unknown = set(step) - {"text", "point", "do", "wrong", "finish", "until"}
        if unknown:
            raise BadTutorial(f"{game}: step {number} has unknown fields {sorted(unknown)}")
        check_step(game, number, step)
    if not isinstance(script.get("over"), str):
        raise BadTutorial(f"{game}: no text key for the end ('over')")


def strings(value: object) -> bool:
    """A string, or a non-empty list of strings."""
    if isinstance(value, list):
        return bool(value) and all(isinstance(item, str) for item in value)
    return isinstance(value, str)


def check_step(game: str, number: int, step: dict[str, Any]) -> None:
    for field in ("do", "point"):
        if field in step and not strings(step[field]):
            raise BadTutorial(f"{game}: step {number}'s {field} must be a string or a list of strings")
    until = step.get("until")
    if until is None:
        return
    if not isinstance(until, dict) or not until:
        raise BadTutorial(f"{game}: step {number}'s until must name the moment it waits for")
    if "do" in step:
        raise BadTutorial(f"{game}: step {number} both asks for a move and lets the person play on")
    if "log" in until and not isinstance(until["log"], str):
        raise BadTutorial(f"{game}: step {number} waits for an event type by its name")


def moves_asked(step: dict[str, Any]) -> list[str]:
    """The moves a step asks for, in order (one, or those of a decision the page sends together)."""
    asked = step.get("do", [])
    return [asked] if isinstance(asked, str) else list(asked)


def scripted(script: dict[str, Any]) -> list[list[str]]:
    """The moves of the steps that ask for one, step by step, up to the first free stretch (after it the
    person's moves are their own, and no later step can say which moves came before it)."""
    steps = []
    for step in script["steps"]:
        if "until" in step:
            break
        if "do" in step:
            steps.append(moves_asked(step))
    return steps


def asked_next(script: dict[str, Any], played: list[str]) -> list[str] | None:
    """What the lesson asks of the person next, after their moves `played` so far: the rest of the step
    they are at (the Hint button proposes it, so that a step and the hint never disagree); None once the
    steps asking for moves are over. The page sends no move a step does not ask for (static/tutorial.js),
    so a move of the person's that is not the next one asked was made by the server for them (an answer
    to an offer they could not answer, say) and is passed over, as the page's steps pass over it."""
    steps = scripted(script)
    at, done = 0, 0  # the step, and how many of its moves are played
    for move in played:
        if at < len(steps) and move == steps[at][done]:
            done += 1
            if done == len(steps[at]):
                at, done = at + 1, 0
    return steps[at][done:] if at < len(steps) else None


def taught_moves(script: dict[str, Any], moves: list[list[Any]]) -> set[int]:
    """The numbers (1-based, in the record's `moves`) of the person's moves (P1's) that were the lesson's
    steps: the analysis does not judge them (they teach the rules, not the best play: a newcomer's first
    analysis called two moves the lesson had asked for an inaccuracy and a mistake, issue 32, fifteenth
    pass)."""
    taught: set[int] = set()
    played: list[str] = []
    for number, (seat, text) in enumerate(moves, start=1):
        if seat != 0:
            continue
        asked = asked_next(script, played)
        if asked and text == asked[0]:
            taught.add(number)
        played.append(text)
    return taught


def reached(view: dict[str, Any], until: dict[str, Any]) -> bool:
    """Whether a view is at the moment a free step waits for (as static/tutorial.js `reached` decides)."""

    def holds(key: str, want: Any) -> bool:
        if key == "log":
            return any(event.get("type") == want for event in view.get("log", []))
        if isinstance(want, (int, float)) and not isinstance(want, bool):
            value = view.get(key)
            return isinstance(value, (int, float)) and value >= want
        return bool(view.get(key) == want)

    return all(holds(key, want) for key, want in until.items())


def text_keys(script: dict[str, Any]) -> set[str]:
    """Every catalogue key (in its `tutorial` section) the script shows."""
    keys = {script["over"]}
    for step in script["steps"]:
        keys |= {step[k] for k in ("text", "wrong") if k in step}
    return keys


def seats(script: dict[str, Any]) -> list[dict[str, Any]]:
    """The person first, then the bots: the seats as `POST /api/tables` describes them."""
    return [{"kind": "human"}] + [{"kind": "bot", "bot": bot} for bot in script["bots"]]


def lesson_levels(game: str, lesson: bool) -> dict[str, str]:
    """The level each of a lesson's bots is named by at its table, {"greedy": "easy"} (the one that
    finishes the game for the person too); nothing for a table that is not a lesson."""
    if not lesson or not has_tutorial(game):
        return {}
    script = tutorial(game)
    return {bot: script["level"] for bot in script["bots"]}


def seed_and_secret(game: str, script: dict[str, Any]) -> tuple[int, str]:
    """The deal and the bots' secret every table of this tutorial shares (nothing there is secret)."""
    secret = hashlib.sha256(f"merchantry tutorial {game} {script['seed']}".encode()).hexdigest()
    return int(script["seed"]), secret


def lesson_table(game: str, script: dict[str, Any]) -> dict[str, Any]:
    """What `TableService.create` takes for a table of this guided first game, but the person's name and
    the creator: its seats, options, deal and bots' secret (the server, its tests and benchmarks share it)."""
    seats_of = seats(script)
    return {
        "players": len(seats_of),
        "options": dict(script.get("options", {})),
        "seats": seats_of,
        "tutorial": seed_and_secret(game, script),
    }

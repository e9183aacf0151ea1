"""Whether a guided first game teaches a line that works (issue 32): its fixed deal played as its steps ask,
the free stretches played for the person by each of several players, against the lesson's bots.

    nice -n 19 .venv/bin/python benchmarks/tutorial_line.py --game NAME [--script path/to/tutorial.json]

The lesson is dealt as the server deals it (server/tutorials.py: its seed, its bots' secret) at a table of
the table service, the person's steps played as named and the bots' moves in between. Where a step lets the
person play on their own, the person's decisions are played by `hint` (the hint the page offers, its whole
move) or by a bot (`greedy`, what the lesson's tests play there; `random`, a person who understood nothing).
The first table lists each player's final scores, the person's place and whether the person won.
The second follows the hint's line: at each of the person's decisions the hint's chance to win with its own
move, the move the lesson asks for (or the hint's, on a free stretch), and, where the lesson asks for a move,
the hint's chance for that move's first step (its search's estimate among the moves it looked at): a lesson
that teaches well asks for moves whose chance is close to the hint's best, and leaves the person at a good
chance when the free stretch begins.

`--script` plays another script on the game's table (an earlier version of the lesson, to compare).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from merchantry import bots
from merchantry.bots.analysis import hint
from merchantry.server import tutorials
from merchantry.server.db import open_database
from merchantry.server.tables import TableService

PERSON = 0
PLAYERS = ("hint", "greedy", "random")


def new_table(game: str, script: dict[str, Any]) -> tuple[TableService, str]:
    folder = tempfile.mkdtemp(prefix="tutorial-line-")
    service = TableService(
        open_database(f"sqlite:///{folder}/lesson.db"), unseen_answer_seconds=0.0, unseen_window_seconds=0.0
    )
    created = service.create(game, name="Ann", **tutorials.lesson_table(game, script))
    return service, str(created["id"])


def persons_turn(service: TableService, table_id: str) -> bool:
    live = service.table(table_id)
    return PERSON in live.state.to_act() and not live.answered_by_server()


def bots_until(service: TableService, table_id: str, ready: Callable[[], bool]) -> None:
    for _ in range(5000):
        if ready():
            return
        if not service.bot_move(table_id):
            raise AssertionError("the table stalls: no bot can move and the person is not to act")
    raise AssertionError("the moment never came")


class Line:
    """One play of the lesson; `notes` the hint's view of each of the person's decisions (when asked)."""

    def __init__(self, game: str, script: dict[str, Any], player: str, judge: bool) -> None:
        self.game, self.script, self.player, self.judge = game, script, player, judge
        self.service, self.table_id = new_table(game, script)
        self.rng = random.Random(0)
        self.notes: list[dict[str, Any]] = []

    @property
    def state(self) -> Any:
        return self.service.table(self.table_id).state

    def note(self, asked: list[str] | None) -> list[str]:
        """The hint here; with `asked`, the chance its search gives the asked move's first step."""
        advice = hint(self.state.clone(), PERSON, self.game)
        options = {o["action"]: o["chance"] for o in advice.options}
        view = self.state.view(PERSON)
        self.notes.append(
            {
                "round": view.get("round", ""),
                "hint": ", ".join(advice.plan),
                "chance": advice.chance,
                "asked": ", ".join(asked) if asked else None,
                "asked_chance": options.get(asked[0]) if asked else None,
            }
        )
        return list(advice.plan)

    def free_move(self) -> list[str]:
        if self.player == "hint":
            return self.note(None)
        bot = bots.get(self.player, self.game)
        return [str(bot.choose(self.state.sample_hidden(PERSON, self.rng), PERSON, self.rng))]

    def play(self, moves: list[str]) -> None:
        for move in moves:
            if self.state.is_over() or move not in map(str, self.state.legal_actions(PERSON)):
                return
            self.service.act(self.table_id, PERSON, move)

    def run(self) -> list[float]:
        asked_moves = [move for step in self.script["steps"] for move in tutorials.moves_asked(step)]
        played = 0  # of asked_moves
        mid_decision = False  # the person's last move left them to act (a bid staged card by card)
        for step in self.script["steps"]:
            if self.state.is_over():
                break
            if "until" in step:
                while not self.state.is_over() and not self.reached(step["until"]):
                    if persons_turn(self.service, self.table_id):
                        self.play(self.free_move())
                    elif not self.service.bot_move(self.table_id):
                        raise AssertionError("the free stretch stalls")
                mid_decision = False
                continue
            for move in tutorials.moves_asked(step):
                bots_until(
                    self.service,
                    self.table_id,
                    lambda move=move: (
                        persons_turn(self.service, self.table_id)
                        and move in map(str, self.state.legal_actions(PERSON))
                    ),
                )
                if self.judge and not mid_decision:
                    self.note(self.decision(asked_moves[played:]))
                self.service.act(self.table_id, PERSON, move)
                played += 1
                state = self.state
                mid_decision = state.in_decision(PERSON) and PERSON in state.to_act()
        bots_until(self.service, self.table_id, lambda: self.state.is_over())
        return [float(s) for s in self.state.scores()]

    def reached(self, until: dict[str, Any]) -> bool:
        return bool(tutorials.reached(self.state.view(PERSON), until))

    def decision(self, asked: list[str]) -> list[str]:
        """The moves asked from here that make up one decision (tried on a copy of the position)."""
        trial = self.state.clone()
        decision = []
        for move in asked:
            action = next((a for a in trial.legal_actions(PERSON) if str(a) == move), None)
            if action is None:
                break
            decision.append(move)
            trial.apply(PERSON, action)
            if trial.is_over() or not trial.in_decision(PERSON) or PERSON not in trial.to_act():
                break  # the decision ends here, as the analysis cuts decisions (analysis.decisions_in)
        return decision


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--script", type=Path, help="another tutorial.json to play on the game's table")
    args = parser.parse_args()
    script = json.loads(args.script.read_text()) if args.script else tutorials.tutorial(args.game)
    if args.script:
        tutorials.check(args.game, script)
    console = Console(width=160)
    console.print(
        f"{args.game}: lesson seed {script['seed']}, options {script.get('options') or 'none'}, bots "
        f"{', '.join(script['bots'])}; {platform.node()}, {platform.python_version()}"
    )
    results = Table(title="The lesson followed, its free stretches played by each player (P1 is the person)")
    for column in ("free stretches by", "final scores", "P1's place", "P1 wins", "CPU s"):
        results.add_column(column)
    lines = {}
    for player in PLAYERS:
        started = time.process_time()
        line = Line(args.game, script, player, judge=player == "hint")
        scores = line.run()
        lines[player] = line
        place = 1 + sum(1 for s in scores if s > scores[PERSON])
        alone = scores.count(scores[PERSON]) == 1
        wins = "no" if place > 1 else "yes" if alone else "shared"
        results.add_row(
            player,
            " · ".join(f"P{seat + 1} {score:g}" for seat, score in enumerate(scores)),
            str(place),
            wins,
            f"{time.process_time() - started:.1f}",
        )
    console.print(results)
    judged = Table(title="The hint's line: the person's chance to win at each decision (the hint's estimate)")
    for column in ("round", "lesson asks", "hint plays", "hint's chance", "chance of the asked first step"):
        judged.add_column(column)
    for note in lines["hint"].notes:
        judged.add_row(
            str(note["round"]),
            note["asked"] or "(free)",
            note["hint"],
            f"{note['chance']:.2f}",
            "" if note["asked_chance"] is None else f"{note['asked_chance']:.2f}",
        )
    console.print(judged)


if __name__ == "__main__":
    main()

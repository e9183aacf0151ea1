"""A tournament: bots play balanced seatings (schedule.py), are rated with openskill, and compared by win
rate with intervals and head to head. Game i depends only on the tournament's arguments and i, so the
results are the same with any number of workers, and a run interrupted by Ctrl-C resumes from its records.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from merchantry import bots, games
from merchantry.arena.backends import chunked, run_chunks
from merchantry.arena.schedule import seating
from merchantry.arena.statistics import uniformity_test, win_rate
from merchantry.simulate import GameResult, play_seated

RECORDS_FILE = "games.jsonl"
SETTINGS_FILE = "tournament.json"


@dataclass(frozen=True)
class Tournament:
    game: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)  # the game's options, the same in every game

    def check(self) -> None:
        """Fail early, with the reason, on a game, player count or bot that does not exist."""
        game = games.get(self.game)
        if not game.min_players <= self.players <= game.max_players:
            raise ValueError(f"{game.title} is for {game.min_players}-{game.max_players} players")
        if len(self.bots) < 2 or len(set(self.bots)) != len(self.bots):
            raise ValueError("a tournament needs at least two different bots, each named once")
        if self.games < 1:
            raise ValueError("a tournament needs at least one game")
        for name in self.bots:
            bots.get(name, self.game, plugins=True)
        game.resolve_options(self.options)

    def play(self, index: int) -> GameResult:
        seats = seating(self.bots, self.players, index)
        return play_seated(self.game, seats, self.seed, index, self.options or None)


def _play_chunk(args: tuple[Tournament, list[int]]) -> list[GameResult]:
    tournament, indices = args
    return [tournament.play(i) for i in indices]


def run(
    tournament: Tournament,
    workers: int = 1,
    done: Iterable[int] = (),
    on_result: Callable[[GameResult], None] = lambda result: None,
    backend: str = "local",
    address: str | None = None,
) -> None:
    """Play every game not in `done`, calling `on_result` as each finishes (in any order), in this process,
    on `workers` processes or on Ray (backends.py). Ctrl-C stops the run; games already reported stay."""
    finished = set(done)
    todo = [i for i in range(tournament.games) if i not in finished]
    tasks = [(tournament, chunk) for chunk in chunked(todo, workers, backend)]
    run_chunks(_play_chunk, tasks, on_result, workers, backend, address, tournament.bots)


# --- records: one JSON line per finished game, so that a run can resume -----------------------------


def save_settings(folder: Path, tournament: Tournament) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    settings = folder / SETTINGS_FILE
    mine = {**asdict(tournament), "bots": list(tournament.bots)}
    if settings.exists():
        theirs = json.loads(settings.read_text(encoding="utf-8"))
        theirs.setdefault("options", {})  # written before tournaments took options
        if {k: v for k, v in theirs.items() if k != "games"} != {
            k: v for k, v in mine.items() if k != "games"
        }:
            raise ValueError(f"{folder} holds records of another tournament ({theirs}); use another folder")
    settings.write_text(json.dumps(mine, indent=1) + "\n", encoding="utf-8")


def append_record(folder: Path, result: GameResult) -> None:
    with (folder / RECORDS_FILE).open("a", encoding="utf-8") as file:
        file.write(json.dumps(asdict(result)) + "\n")


def load_records(folder: Path) -> dict[int, GameResult]:
    """Finished games kept in `folder` (a line cut short by an interruption is ignored)."""
    path = folder / RECORDS_FILE
    found: dict[int, GameResult] = {}
    if not path.exists():
        return found
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            continue
        data["seat_bots"] = tuple(data["seat_bots"])
        data["scores"] = tuple(data["scores"])
        data["winners"] = tuple(data["winners"])
        result = GameResult(**data)
        found[result.index] = result
    return found


# --- analysis ---------------------------------------------------------------------------------------


def ranks(scores: tuple[float, ...]) -> list[int]:
    """1 for the best score; tied seats share a rank."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def ratings(tournament: Tournament, results: list[GameResult]) -> dict[str, dict[str, float]]:
    """openskill (Plackett-Luce) over the games in their order. A bot in several seats of one game (fewer
    bots than seats) is rated as each seat, then its seats' new ratings are averaged."""
    model = PlackettLuce()
    current = {name: model.rating(name=name) for name in tournament.bots}
    for result in sorted(results, key=lambda r: r.index):
        teams = [[current[name]] for name in result.seat_bots]
        rated = model.rate(teams, ranks=[float(rank) for rank in ranks(result.scores)])
        for name in set(result.seat_bots):
            mine = [rated[s][0] for s, bot in enumerate(result.seat_bots) if bot == name]
            mu = statistics.fmean(r.mu for r in mine)
            sigma = statistics.fmean(r.sigma for r in mine)
            current[name] = model.rating(mu=mu, sigma=sigma, name=name)
    return {
        name: {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal()}
        for name, rating in current.items()
    }


def analyse(tournament: Tournament, results: list[GameResult]) -> dict[str, Any]:
    """Everything a report shows, as plain data."""
    results = sorted(results, key=lambda r: r.index)
    n = tournament.players
    by_bot: dict[str, dict[str, Any]] = {}
    for name in tournament.bots:
        seats = [(r, s) for r in results for s, bot in enumerate(r.seat_bots) if bot == name]
        wins = sum(1 / len(r.winners) for r, s in seats if s in r.winners)
        scores = [r.scores[s] for r, s in seats]
        by_bot[name] = {
            "seats": len(seats),
            "wins": wins,
            **win_rate(wins, len(seats)),
            "mean_score": statistics.fmean(scores) if scores else 0.0,
            "stdev_score": statistics.pstdev(scores) if scores else 0.0,
            "scores": scores,
        }
    seat_wins = [sum(1 / len(r.winners) for r in results if s in r.winners) for s in range(n)]
    by_seat = [
        {**win_rate(seat_wins[s], len(results)), "mean_score": statistics.fmean(r.scores[s] for r in results)}
        for s in range(n)
    ]
    return {
        "tournament": {**asdict(tournament), "bots": list(tournament.bots), "played": len(results)},
        "ratings": ratings(tournament, results),
        "by_bot": by_bot,
        "by_seat": by_seat,
        "seat_test": uniformity_test(seat_wins),
        "head_to_head": head_to_head(tournament, results),
        "length": {
            "actions": [r.actions for r in results],
            "turns": [r.turns for r in results if r.turns is not None],
            "rounds": [r.rounds for r in results if r.rounds is not None],
        },
    }


def head_to_head(tournament: Tournament, results: list[GameResult]) -> dict[str, dict[str, Any]]:
    """For each pair of bots that met: how often the first finished ahead of the second (a tie counts
    half), over every pair of their seats in the same game."""
    table: dict[str, dict[str, Any]] = {a: {} for a in tournament.bots}
    for a in tournament.bots:
        for b in tournament.bots:
            if a == b:
                continue
            ahead = meetings = 0.0
            for r in results:
                for sa, bot_a in enumerate(r.seat_bots):
                    for sb, bot_b in enumerate(r.seat_bots):
                        if bot_a == a and bot_b == b:
                            meetings += 1
                            ahead += (
                                1.0
                                if r.scores[sa] > r.scores[sb]
                                else 0.5
                                if r.scores[sa] == r.scores[sb]
                                else 0
                            )
            if meetings:
                table[a][b] = {"meetings": int(meetings), "ahead": ahead / meetings}
    return table

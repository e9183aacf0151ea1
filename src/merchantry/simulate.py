"""Many bot games in a row, for balance studies and bot comparisons: `merchantry simulate`.

Game i of a run gets its own seed drawn from the run's seed, and the bot line-up is rotated by i so that
every bot sits in every seat equally often. The results depend only on the run's arguments, not on how
many worker processes share the games.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from merchantry import bots, games
from merchantry.records import Record, Session


@dataclass(frozen=True)
class GameResult:
    index: int
    seat_bots: tuple[str, ...]  # bot name per seat
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    actions: int
    rounds: int | None  # from the final view, for games that count rounds
    record: Record
    turns: int | None = None  # from the final view ("turns_played"), for games that count turns
    first_player: int | None = None  # the seat that moved first, for games whose view names it


@dataclass
class Summary:
    game: str
    players: int
    games: int
    seconds: float
    by_bot: dict[str, dict[str, float]] = field(default_factory=dict)
    by_seat: list[dict[str, float]] = field(default_factory=list)
    length: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else None,
            "by_bot": self.by_bot,
            "by_seat": self.by_seat,
            "length": self.length,
        }


def game_seed(run_seed: int, index: int) -> int:
    return random.Random(f"simulate:{run_seed}:{index}").getrandbits(32)


def lineup_for(lineup: Sequence[str], index: int) -> tuple[str, ...]:
    """Rotate the line-up by the game index: game 1 puts the first bot in seat 2, and so on."""
    n = len(lineup)
    return tuple(lineup[(seat - index) % n] for seat in range(n))


def play_one(
    game_name: str,
    lineup: Sequence[str],
    run_seed: int,
    index: int,
    options: dict[str, Any] | None = None,
) -> GameResult:
    return play_seated(game_name, lineup_for(lineup, index), run_seed, index, options)


def play_seated(
    game_name: str,
    seat_bots: tuple[str, ...],
    run_seed: int,
    index: int,
    options: dict[str, Any] | None = None,
) -> GameResult:
    """Game `index` of a run, with `seat_bots[s]` in seat s: depends on nothing but its arguments."""
    session = Session(game_name, len(seat_bots), game_seed(run_seed, index), options)
    first = session.state.view(None).get("first_player")
    players = [bots.get(name, game_name, plugins=True) for name in seat_bots]  # its driver checked them
    rng = random.Random(f"bots:{run_seed}:{index}")
    state = session.state
    while not state.is_over():
        seat = state.to_act()[0]
        session.apply(seat, bots.play_turn(state, seat, players[seat], rng))
    final = state.view(None)
    rounds, turns = final.get("round"), final.get("turns_played")
    return GameResult(
        index,
        seat_bots,
        tuple(state.scores()),
        tuple(state.winners()),
        len(session.moves),
        rounds if isinstance(rounds, int) else None,
        session.record(),
        turns if isinstance(turns, int) else None,
        first if isinstance(first, int) else None,
    )


def _play_chunk(
    args: tuple[str, tuple[str, ...], int, list[int], dict[str, Any] | None],
) -> list[GameResult]:
    game_name, lineup, run_seed, indices, options = args
    return [play_one(game_name, lineup, run_seed, i, options) for i in indices]


def check_lineup(game_name: str, lineup: Sequence[str]) -> None:
    """Fail early, with the reason, on a player count or a bot that does not exist for the game."""
    game = games.get(game_name)
    if not game.min_players <= len(lineup) <= game.max_players:
        raise ValueError(
            f"{game.title} is for {game.min_players}-{game.max_players} players, not {len(lineup)}"
        )
    for name in set(lineup):
        bots.get(name, game_name, plugins=True)


def run(
    game_name: str,
    lineup: Sequence[str],
    games_count: int,
    seed: int = 0,
    workers: int = 1,
    on_result: Callable[[GameResult], None] = lambda result: None,
    backend: str = "local",
    address: str | None = None,
    options: dict[str, Any] | None = None,
) -> tuple[list[GameResult], float]:
    """Play `games_count` games; returns the results in game order and the wall-clock seconds. `on_result`
    hears of each game as it finishes (for progress); on Ctrl-C the finished games are kept in `on_result`'s
    hands and KeyboardInterrupt propagates."""
    from merchantry.arena.backends import chunked, run_chunks

    check_lineup(game_name, lineup)
    if options:
        games.get(game_name).resolve_options(options)  # a bad option: its reason now, not in a worker
    start = time.perf_counter()
    lineup = tuple(lineup)
    tasks = [
        (game_name, lineup, seed, chunk, options) for chunk in chunked(range(games_count), workers, backend)
    ]
    results: list[GameResult] = []

    def keep(result: GameResult) -> None:
        results.append(result)
        on_result(result)

    run_chunks(_play_chunk, tasks, keep, workers, backend, address, lineup)
    return sorted(results, key=lambda r: r.index), time.perf_counter() - start


def run_until_stopped(
    game_name: str, lineup: Sequence[str], games_count: int, seed: int = 0, workers: int = 1
) -> tuple[list[GameResult], bool]:
    """`run`, where Ctrl-C (or a SIGTERM handler raising KeyboardInterrupt) ends it early: the games
    finished so far in game order, and whether the run was stopped (for a long measurement's row)."""
    finished: list[GameResult] = []
    try:
        run(game_name, lineup, games_count, seed=seed, workers=workers, on_result=finished.append)
    except KeyboardInterrupt:
        return sorted(finished, key=lambda r: r.index), True
    return sorted(finished, key=lambda r: r.index), False


def summarise(game_name: str, results: list[GameResult], seconds: float) -> Summary:
    players = len(results[0].scores)
    summary = Summary(game_name, players, len(results), seconds)
    wins_by_bot: dict[str, float] = {}
    seats_by_bot: dict[str, int] = {}
    scores_by_bot: dict[str, list[float]] = {}
    seat_wins = [0.0] * players
    seat_scores: list[list[float]] = [[] for _ in range(players)]
    for result in results:
        share = 1 / len(result.winners)
        for seat, name in enumerate(result.seat_bots):
            won = share if seat in result.winners else 0.0
            wins_by_bot[name] = wins_by_bot.get(name, 0.0) + won
            seats_by_bot[name] = seats_by_bot.get(name, 0) + 1
            scores_by_bot.setdefault(name, []).append(result.scores[seat])
            seat_wins[seat] += won
            seat_scores[seat].append(result.scores[seat])
    for name in sorted(seats_by_bot):
        scores = scores_by_bot[name]
        summary.by_bot[name] = {
            "seats": seats_by_bot[name],
            "win_rate": wins_by_bot[name] / seats_by_bot[name],
            "mean_score": statistics.fmean(scores),
            "stdev_score": statistics.pstdev(scores),
        }
    summary.by_seat = [
        {
            "win_rate": seat_wins[seat] / len(results),
            "mean_score": statistics.fmean(seat_scores[seat]),
            "stdev_score": statistics.pstdev(seat_scores[seat]),
        }
        for seat in range(players)
    ]
    actions = [r.actions for r in results]
    summary.length = {"mean_actions": statistics.fmean(actions), "max_actions": max(actions)}
    rounds = [r.rounds for r in results if r.rounds is not None]
    if rounds:
        summary.length["mean_rounds"] = statistics.fmean(rounds)
        summary.length["max_rounds"] = max(rounds)
    turns = [r.turns for r in results if r.turns is not None]
    if turns:
        summary.length["mean_turns"] = statistics.fmean(turns)
        summary.length["max_turns"] = max(turns)
    return summary

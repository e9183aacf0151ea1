"""Balance studies for designers: one bot in every seat, many games, and how a rule option or the
player count changes seat advantage, score spread and game length (`merchantry balance`).

Every variant plays games 0..n-1 with the same game seeds (the same deals where the variant allows), so
differences between variants come from the variant, not from different luck.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from merchantry import bots, games
from merchantry.arena.backends import chunked, run_chunks
from merchantry.arena.statistics import uniformity_test, win_rate
from merchantry.simulate import GameResult, play_seated


@dataclass(frozen=True)
class Variant:
    """One setting of the game to study: a player count and its options."""

    label: str
    players: int
    options: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Study:
    game: str
    bot: str
    games: int
    seed: int = 0
    variants: tuple[Variant, ...] = field(default=())

    def check(self) -> None:
        """Fail before any game runs, with the reason: an unknown bot, a player count or an option value
        the game refuses (a first game of every variant is built, which checks what depends on the
        player count too)."""
        game = games.get(self.game)
        bots.get(self.bot, self.game, plugins=True)
        if self.games < 1:
            raise ValueError("a balance study needs at least one game")
        for variant in self.variants:
            if not game.min_players <= variant.players <= game.max_players:
                raise ValueError(f"{game.title} is for {game.min_players}-{game.max_players} players")
            game.new_game(players=variant.players, seed=0, **dict(variant.options))


def variants(
    game_name: str, players: int, options: dict[str, Any], compare: str | None
) -> tuple[Variant, ...]:
    """The variants of `--compare name=a,b,...` (`players` or an option), or the one setting given. Values
    that hold commas themselves are separated by `|` instead: `name=A1,A2|B1,B2`. A
    variant's name alone (`--compare late_start_money`) compares the rulebook with the variant's values
    that `variant_values` suggests."""
    name, sep, values = (compare or "").partition("=")
    if not compare:
        return (Variant(_label(players, options), players, tuple(sorted(options.items()))),)
    if not sep:
        values = "|".join(map(str, variant_values(game_name, name.strip())))
        sep = "="
    name = name.strip()
    separator = "|" if "|" in values else ","
    choices = [v.strip() for v in values.split(separator) if v.strip()]
    if len(choices) < 2:
        raise ValueError(
            "--compare takes name=value1,value2[,...] (name: players or an option; values that hold "
            "commas are separated by |: name=A1,A2|B1,B2)"
        )
    found = []
    for value in choices:
        typed: Any = int(value) if value.lstrip("-").isdigit() else value
        if name == "players":
            if not isinstance(typed, int):
                raise ValueError(f"players must be a number, not {value!r}")
            found.append(Variant(_label(typed, options), typed, tuple(sorted(options.items()))))
        else:
            chosen = {**options, name: typed}
            found.append(Variant(_label(players, chosen), players, tuple(sorted(chosen.items()))))
    return tuple(found)


def variant_values(game_name: str, name: str) -> list[Any]:
    """For `--compare VARIANT` alone: the rulebook's value and two others from the variant's range
    (the range's ends for a number), so that a designer sees at once which way it moves the game."""
    game = games.get(game_name)
    known, allowed = game.options(), game.option_values()
    if name not in game.variants():
        listed = ", ".join(game.variants()) or "none"
        raise ValueError(f"{name!r} is no variant of {game_name} (variants: {listed}); or write {name}=A,B")
    default = known[name][0]
    low, high = _integer_ends(allowed[name])
    candidates = [default, low, high] if low is not None else [default]
    found = list(dict.fromkeys(v for v in candidates if v is not None))
    if len(found) < 2:
        raise ValueError(f"give the values of {name} to compare: --compare {name}=A,B")
    return found


def _integer_ends(allowed: Any) -> tuple[int | None, int | None]:
    """The smallest and largest integer an option accepts (searched in 0..1000), or (None, None)."""
    accepted = [v for v in range(0, 1001) if allowed.accepts(v)]
    return (accepted[0], accepted[-1]) if accepted else (None, None)


def _label(players: int, options: dict[str, Any]) -> str:
    return ", ".join([f"{players} players", *(f"{k}={v}" for k, v in sorted(options.items()))])


def _play_chunk(args: tuple[Study, Variant, list[int]]) -> list[tuple[str, GameResult]]:
    study, variant, indices = args
    seats = (study.bot,) * variant.players
    return [
        (variant.label, play_seated(study.game, seats, study.seed, i, dict(variant.options))) for i in indices
    ]


def run(
    study: Study,
    on_result: Callable[[str, GameResult], None],
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
) -> None:
    """Play every variant's games, reporting (variant label, result) as they finish."""
    games = range(study.games)
    tasks = [
        (study, variant, chunk) for variant in study.variants for chunk in chunked(games, workers, backend)
    ]

    def report(labelled: tuple[str, GameResult]) -> None:
        on_result(*labelled)

    run_chunks(_play_chunk, tasks, report, workers, backend, address, (study.bot,))


def analyse(study: Study, results: dict[str, list[GameResult]]) -> dict[str, Any]:
    """Per variant: seat advantage (win rates with intervals, chi-square), score spread, game length."""
    out: dict[str, Any] = {
        "study": {"game": study.game, "bot": study.bot, "games": study.games, "seed": study.seed},
        "variants": {},
    }
    for variant in study.variants:
        found = sorted(results.get(variant.label, []), key=lambda r: r.index)
        if not found:
            continue
        n = variant.players
        wins = [sum(1 / len(r.winners) for r in found if s in r.winners) for s in range(n)]
        seats = [
            {**win_rate(wins[s], len(found)), "mean_score": statistics.fmean(r.scores[s] for r in found)}
            for s in range(n)
        ]
        order = turn_order(found, n)
        every_score = [score for r in found for score in r.scores]
        margins = [_margin(r.scores) for r in found]
        turns = [r.turns for r in found if r.turns is not None]
        rounds = [r.rounds for r in found if r.rounds is not None]
        out["variants"][variant.label] = {
            "players": n,
            "games": len(found),
            "seats": seats,
            "seat_test": uniformity_test(wins),
            "turn_order": order,
            "scores": every_score,
            "mean_score": statistics.fmean(every_score),
            "stdev_score": statistics.pstdev(every_score),
            "margins": margins,
            "mean_margin": statistics.fmean(margins),
            "shared_wins": sum(1 for r in found if len(r.winners) > 1) / len(found),
            "length": {"turns": turns, "rounds": rounds, "actions": [r.actions for r in found]},
        }
    return out


def turn_order(found: list[GameResult], n: int) -> dict[str, Any] | None:
    """Win rate by position in the turn order (1st = the seat that moved first), for games that draw the
    first player (their view names `first_player`): there seats are not positions."""
    if any(r.first_player is None for r in found):
        return None
    wins = [0.0] * n
    for r in found:
        for w in r.winners:
            wins[(w - (r.first_player or 0)) % n] += 1 / len(r.winners)
    positions = [win_rate(wins[p], len(found)) for p in range(n)]
    return {"positions": positions, "test": uniformity_test(wins)}


def _margin(scores: tuple[float, ...]) -> float:
    """How far the winner finished ahead of the runner-up (0 on a shared win)."""
    ordered = sorted(scores, reverse=True)
    return ordered[0] - ordered[1] if len(ordered) > 1 else 0.0

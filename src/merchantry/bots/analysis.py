"""Hints and post-game analysis by the `hard` bot's search.

Both judge a seat only by what that seat could know at the time: every search runs on worlds sampled for
that seat (`sample_hidden`), never on the real state, so an analysis tells no one the cards they did not see.

Marks (the loss is the drop in the seat's estimated chance to win between the move the search preferred
and the move played, in percentage points): an **inaccuracy** loses 5 or more, a **mistake** 10 or more, a
**blunder** 20 or more. Estimates come from a few hundred sampled games each, so a loss below 5 points is
within their noise and is not marked.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

from merchantry import games, records
from merchantry.bots.ismcts import Search, SearchConfig, SearchResult, searcher, win_shares
from merchantry.bots.levels import recipe
from merchantry.engine import Action, State

MARKS = ((0.20, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))


def mark(loss: float) -> str | None:
    """The mark of a move that lost `loss` (0..1) of the seat's chance to win, or None."""
    for threshold, name in MARKS:
        if loss >= threshold - 1e-9:
            return name
    return None


@dataclass(frozen=True)
class Hint:
    seat: int
    best: str  # the first step the search prefers
    plan: list[str]  # the whole multi-step move it has in mind (a bid card by card, a market turn)
    chance: float  # the seat's estimated chance to win, playing on from here
    options: list[dict[str, Any]]  # each step tried: action, visits, chance after it; most visited first

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def hint(
    state: State, seat: int, game_name: str, rng: random.Random, config: SearchConfig | None = None
) -> Hint:
    """What `hard` (or `config`) would play for `seat` here, searched on the seat's sampled worlds only."""
    search = searcher(game_name, config or recipe(game_name, "hard"))
    result = search.run(state.sample_hidden(seat, rng), seat, rng)
    return Hint(
        seat=seat,
        best=str(result.best),
        plan=[str(a) for a in result.plan],
        chance=round(result.value, 3),
        options=[
            {"action": str(a.action), "visits": a.visits, "chance": round(a.value, 3)} for a in result.actions
        ],
    )


@dataclass(frozen=True)
class Decision:
    move: int  # 1-based number of the move in the record
    seat: int
    played: str
    preferred: str
    before: float  # the seat's chance to win before the move, playing the preferred move
    after: float  # its chance after the move played
    best: float  # its chance after the move preferred
    mark: str | None

    @property
    def loss(self) -> float:
        return max(0.0, self.best - self.after)


def _value_after(
    search: Search, state: State, seat: int, action: Action, result: SearchResult, rng: random.Random
) -> float:
    """The seat's chance after `action`: the search's own figure if it tried the move often enough, else
    a search from the position after it (still on the seat's sampled worlds)."""
    for tried in result.actions:
        if tried.action == action and tried.visits >= search.config.plan_visits:
            return tried.value
    after = state.clone()
    after.apply(seat, action)
    if after.is_over():
        return win_shares(after.winners(), after.num_players)[seat]
    return search.run(after.sample_hidden(seat, rng), seat, rng).value


def analyze(
    record: dict[str, Any],
    config: SearchConfig | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[Decision]:
    """Judge every decision of a game record that had a choice, each by its own seat's sampled worlds.
    A malformed record or a refused move raises InvalidRecord before anything is searched."""
    records.replay(record)  # the whole record is checked first
    game = games.get(record["game"])
    search = searcher(game.name, config or recipe(game.name, "hard"))
    rng = random.Random(f"analysis:{record['seed']}")
    state = game.new_game(players=record["players"], seed=record["seed"], **record["options"])
    moves = record["moves"]
    for number, (seat, text) in enumerate(moves, start=1):
        action = game.parse_action(state, seat, text)
        if len(state.legal_actions(seat)) > 1:
            result = search.run(state.sample_hidden(seat, rng), seat, rng)
            best = result.actions[0]
            after = _value_after(search, state, seat, action, result, rng)
            best_value = after if best.action == action else best.value
            loss = max(0.0, best_value - after)
            yield Decision(number, seat, text, str(best.action), best.value, after, best_value, mark(loss))
        state.apply(seat, action)
        if progress:
            progress(number, len(moves))


def summary(decisions: list[Decision], players: int) -> list[dict[str, Any]]:
    """Per seat: decisions judged, how many of each mark, and the mean loss of chance per decision."""
    rows = []
    for seat in range(players):
        mine = [d for d in decisions if d.seat == seat]
        row: dict[str, Any] = {"seat": seat, "decisions": len(mine)}
        for _, name in MARKS:
            row[name] = sum(1 for d in mine if d.mark == name)
        row["mean_loss"] = sum(d.loss for d in mine) / len(mine) if mine else 0.0
        rows.append(row)
    return rows

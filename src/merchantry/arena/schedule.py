"""Balanced seatings for a tournament.

With k bots and n seats, game i seats bot (i + s) mod k in seat s, and every second block of k games runs
the other way round the table (bot (i - s) mod k), so that over 2k games every bot sits in every seat
equally often and meets its neighbours on both sides. More bots than seats is fine (each game takes n of
them in turn); fewer bots than seats puts a bot in several seats of a game.
"""

from __future__ import annotations

from collections.abc import Sequence


def seating(bots: Sequence[str], seats: int, index: int) -> tuple[str, ...]:
    """The bot in each seat of game `index`."""
    k = len(bots)
    direction = 1 if (index // k) % 2 == 0 else -1
    return tuple(bots[(index + direction * seat) % k] for seat in range(seats))


def balanced_length(bots: Sequence[str], games: int) -> int:
    """The smallest number of games >= `games` that completes the schedule's blocks (2k games each)."""
    block = 2 * len(bots)
    return -(-games // block) * block

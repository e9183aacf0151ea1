"""What every adapter keeps beside the engine state: the bound that makes each episode finite, each seat's
own actions (perfect recall), its observations at its last decisions (the history option) and the rewards.

Finite episodes. The rules let a seat change a choice it has not yet sealed as often as it likes (a sealed
bid built card by card, where a card put in can be taken back), so an agent that adds and removes the same
card forever never ends the game. People never notice a bound on that, so the rules keep none; the adapters
do. A seat that takes more than `MOVE_STEPS` actions in a row without leaving `to_act()` (one move, however
it is built; not `in_decision`, which a bid emptied again by taking its card back leaves, so a loop of adds
and removes would never count) truncates the episode, and so does an episode longer than `EPISODE_STEPS`
actions in all. A truncated game has no winner: the seat that stalled scores -1, a loss, so that stalling is
never better than losing (with a plain time limit it would score 0, and a learner that is losing learns to
stall); the other seats score 0. The longest move seen in random play is about a hundred actions (a random
walk of adds and removes in one sealed bid), the longest random game about 1,500 actions
(`tests/rl/test_finite.py`).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from merchantry.engine import State

MOVE_STEPS: Final = 1_000  # actions of one seat in one move (it stays in to_act() throughout)
EPISODE_STEPS: Final = 100_000  # actions of all seats in one episode; a last resort (no game comes near)
REWARDS: Final = ("win", "margin")


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


def win_rewards(state: State) -> list[float]:
    """+1 for each winner (a shared win too), -1 for every other seat."""
    winners = set(state.winners())
    return [1.0 if seat in winners else -1.0 for seat in range(state.num_players)]


def margin_rewards(state: State) -> list[float]:
    """Each seat's final score against the best other seat's, scaled into [-1, 1]:
    (mine - best other) / (|mine| + |best other|), 0 when both are 0. Given at the end only: during play
    `scores()` may count hidden cards (hands that score), so a reward per step would leak them."""
    scores = state.scores()
    out = []
    for seat, mine in enumerate(scores):
        best_other = max(score for other, score in enumerate(scores) if other != seat)
        scale = abs(mine) + abs(best_other)
        out.append((mine - best_other) / scale if scale else 0.0)
    return out


def final_rewards(state: State, reward: str = "win") -> list[float]:
    return margin_rewards(state) if reward == "margin" else win_rewards(state)


class Episode:
    """Counts the actions of one episode, per seat: how long its current move has lasted (the bound), the
    ids of every action it took (perfect recall) and its observations at its last `history` decisions."""

    def __init__(self, players: int, history: int = 0):
        self.players = players
        self.history = history
        self.steps = 0
        self.move_steps = [0] * players
        self.own: list[list[int]] = [[] for _ in range(players)]
        self.move: list[list[int]] = [[] for _ in range(players)]
        self.past: list[list[Any]] = [[] for _ in range(players)]  # observations (arrays), newest first
        self.stalled: int | None = None  # the seat that ran over MOVE_STEPS

    def __deepcopy__(self, memo: dict[int, Any]) -> Episode:
        """A copy for a cloned state (OpenSpiel clones with copy.deepcopy): the lists of ints are copied,
        the kept observations are never changed in place, so they are shared."""
        copy = Episode(self.players, self.history)  # compiled, the class has no __new__ without __init__
        copy.steps = self.steps
        copy.move_steps = list(self.move_steps)
        copy.own = [list(actions) for actions in self.own]
        copy.move = [list(actions) for actions in self.move]
        copy.past = [list(observations) for observations in self.past]
        copy.stalled = self.stalled
        return copy

    def before(self, seat: int, observation: Any) -> None:
        """Called before the first action of a move of `seat` (`move[seat]` empty) with the observation it
        acts on, for the history option."""
        self.past[seat] = [observation, *self.past[seat]][: self.history]

    def after(self, acting: list[int], seat: int, action_id: int) -> None:
        """Called once `seat`'s action `action_id` is applied, with the seats to act now (`to_act()`)."""
        self.steps += 1
        self.own[seat].append(action_id)
        self.move[seat].append(action_id)
        self.move_steps[seat] += 1
        move_steps = self.move_steps
        for other in range(self.players):
            if move_steps[other] and other not in acting:  # its move is over: the count starts again
                move_steps[other] = 0
                self.move[other] = []
        if self.move_steps[seat] > MOVE_STEPS and self.stalled is None:
            self.stalled = seat

    def truncated(self) -> bool:
        return self.stalled is not None or self.steps >= EPISODE_STEPS

    def truncation_rewards(self) -> list[float]:
        """A truncated game has no winner: -1 for the seat that stalled, 0 for everyone else."""
        return [-1.0 if seat == self.stalled else 0.0 for seat in range(self.players)]

    def history_features(self, seat: int, size: int) -> list[Any]:
        """The seat's observations at the start of its last `history` moves, newest first, zeros where
        there were fewer: each `size` numbers (a float32 array each; the adapters concatenate them)."""
        past = self.past[seat]
        return [
            past[index] if index < len(past) else np.zeros(size, np.float32) for index in range(self.history)
        ]

"""Every game with an encoding as a single-agent Gymnasium environment: one seat learns, bots play the
others.

    import gymnasium, merchantry.rl.gymnasium
    env = gymnasium.make("merchantry/<Game>-v0", players=3, opponents="greedy")

Ids are `merchantry/<Game>-v0`, the game's name in CamelCase (`env_id`), registered when this module is
imported. The observation is the learner's encoded `view(seat)`; `info["action_mask"]` and
`env.action_masks()` (the name sb3-contrib's MaskablePPO asks for) give the legal action ids. The
reward comes at the end: +1 for a win (shared wins too), -1 otherwise. An illegal action ends the episode
with reward -1 (so that unmasked agents learn the rules too), and `info["illegal"]` says so.
Bots choose in worlds sampled for their seats, like everywhere else (ENGINE principle 2).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from merchantry import bots, games
from merchantry.engine import State
from merchantry.rl.encoding import BOUND, action_space, encoding_of
from merchantry.rl.pettingzoo import final_rewards


def env_id(game: str) -> str:
    return "merchantry/" + "".join(part.title() for part in game.split("_")) + "-v0"


class SeatEnv(gymnasium.Env[np.ndarray, np.int64]):
    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        seat: int = 0,
        opponents: str = "random",
        render_mode: str | None = None,
        options: dict[str, Any] | None = None,
    ):
        self.game = games.get(game)
        self.players = players or self.game.min_players
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}")
        self.seat = seat
        self.options = self.game.resolve_options(options or {})
        self.encoding = encoding_of(game)
        self.action_ids = action_space(game, self.players)
        self.opponents = {s: bots.get(opponents, game) for s in range(self.players) if s != seat}
        self.render_mode = render_mode
        size = self.encoding.observation_size(self.players)
        self.observation_space = spaces.Box(-BOUND, BOUND, (size,), np.float32)
        self.action_space = spaces.Discrete(len(self.action_ids))
        self.state: State | None = None
        self.bot_rng = random.Random(0)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        self.bot_rng = random.Random(int(self.np_random.integers(2**62)))
        self.state = self.game.new_game(players=self.players, seed=game_seed, **self.options)
        self._bots_move()
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        assert self.state is not None, "call reset() first"
        mask = self.action_masks()
        if not mask[int(action)]:
            return self._observation(), -1.0, True, False, {**self._info(), "illegal": True}
        self.state.apply(self.seat, self.action_ids.action(self.state, self.seat, int(action)))
        self._bots_move()
        reward = final_rewards(self.state)[self.seat] if self.state.is_over() else 0.0
        return self._observation(), reward, self.state.is_over(), False, self._info()

    def _bots_move(self) -> None:
        """Let the bots act until the learner must act or the game is over."""
        assert self.state is not None
        while not self.state.is_over():
            waiting = [s for s in self.state.to_act() if s != self.seat]
            if self.seat in self.state.to_act() and not waiting:
                return
            if not waiting:
                return
            seat = waiting[0]
            self.state.apply(seat, bots.play_turn(self.state, seat, self.opponents[seat], self.bot_rng))

    def action_masks(self) -> np.ndarray:
        """The legal action ids of the learner (all False once the game is over)."""
        assert self.state is not None
        if self.state.is_over():
            return np.zeros(len(self.action_ids), bool)
        return np.asarray(self.action_ids.mask(self.state, self.seat), bool)

    def _observation(self) -> np.ndarray:
        assert self.state is not None
        return np.asarray(self.encoding.observe(self.state.view(self.seat), self.players), np.float32)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        return str(self.state.view(self.seat))


def register_all() -> list[str]:
    """Register `merchantry/<Game>-v0` for every game with an encoding; returns the ids."""
    ids = []
    for name in games.names():
        if games.package(name).encoding is None:
            continue
        ids.append(env_id(name))
        if env_id(name) not in gymnasium.registry:
            gymnasium.register(id=env_id(name), entry_point=f"{__name__}:SeatEnv", kwargs={"game": name})
    return ids


IDS = register_all()

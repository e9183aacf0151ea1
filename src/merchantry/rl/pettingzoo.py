"""Every game with an encoding as a PettingZoo AEC environment:

    from merchantry.rl import pettingzoo
    env = pettingzoo.env(GAME, players=4)       # GAME: a name from merchantry.games.names()
    env.reset(seed=7)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else int(np.flatnonzero(mask)[0])
        env.step(action)

Agents are `player_0`, `player_1`, ... (seat P1 is player_0). The agent to act is the first seat of the
game's `to_act()`: in a simultaneous step (sealed bids, an offer every seat answers) the seats take it in
turn, each building its own choice step by step; a seat's observation comes from its own `view(seat)`, which
never shows another seat's sealed choice, so acting later tells it nothing more than acting first.
Rewards come at the end: +1 for a winner (a shared win too), -1 for every other seat.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from merchantry import games
from merchantry.engine import State
from merchantry.i18n import Translator
from merchantry.rl.encoding import BOUND, action_space, encoding_of


def env(
    game: str, players: int | None = None, render_mode: str | None = None, **options: Any
) -> MerchantryEnv:
    """The AEC environment of `game` for `players` seats (default: the game's minimum), with the game's
    `options` (as `game.options()` lists them)."""
    return MerchantryEnv(game, players, render_mode, options)


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def final_rewards(state: State) -> list[float]:
    winners = set(state.winners())
    return [1.0 if seat in winners else -1.0 for seat in range(state.num_players)]


class MerchantryEnv(AECEnv):  # type: ignore[misc]
    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        options: dict[str, Any] | None = None,
    ):
        super().__init__()
        self.game = games.get(game)
        self.options = self.game.resolve_options(options or {})
        self.players = players or self.game.min_players
        self.encoding = encoding_of(game)
        self.action_ids = action_space(game, self.players)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"merchantry_{game}_v0"}
        self.possible_agents = [agent_name(seat) for seat in range(self.players)]
        size = self.encoding.observation_size(self.players)
        observation = spaces.Dict(
            {
                "observation": spaces.Box(-BOUND, BOUND, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (len(self.action_ids),), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = {a: spaces.Discrete(len(self.action_ids)) for a in self.possible_agents}
        self.state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def seat_of(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: the same seed gives the same game (the game's options are the environment's)."""
        game_seed = seed if seed is not None else random.SystemRandom().getrandbits(63)
        self.state = self.game.new_game(players=self.players, seed=game_seed, **self.options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self.state.to_act()[0])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state is not None
        seat = self.seat_of(agent)
        view = self.state.view(seat)
        mask = np.zeros(len(self.action_ids), np.int8)
        if agent == self.agent_selection and not self.state.is_over():
            mask[:] = self.action_ids.mask(self.state, seat)
        return {
            "observation": np.asarray(self.encoding.observe(view, self.players), np.float32),
            "action_mask": mask,
        }

    def step(self, action: int | None) -> None:
        assert self.state is not None
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.seat_of(agent)
        self._cumulative_rewards[agent] = 0.0
        if action is None:
            raise ValueError(f"{agent} must act: pass an action id")
        self.state.apply(seat, self.action_ids.action(self.state, seat, int(action)))
        if self.state.is_over():
            for other, reward in zip(self.agents, final_rewards(self.state), strict=True):
                self.rewards[other] = reward
                self.terminations[other] = True
        else:
            self.agent_selection = agent_name(self.state.to_act()[0])
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        translator = Translator(self.game.name)
        return "\n".join(translator.event(e) for e in self.state.view(None)["log"][-10:])

    def close(self) -> None:
        self.state = None

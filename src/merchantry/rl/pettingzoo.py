"""Every game with an encoding as a PettingZoo environment, AEC (`env`) and parallel (`parallel_env`):

    from merchantry.rl import pettingzoo
    env = pettingzoo.env(GAME, players=4)       # GAME: a name from merchantry.games.names()
    env.reset(seed=7)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else int(np.flatnonzero(mask)[0])
        env.step(action)

Agents are `player_0`, `player_1`, ... (seat P1 is player_0). In the AEC environment the agent to act is
the first seat of the game's `to_act()`: in a simultaneous step (sealed bids, an offer every seat answers)
the seats take it in turn, each building its own choice step by step; a seat's observation comes from its
own `view(seat)`, which never shows another seat's sealed choice, so acting later tells it nothing more
than acting first. The parallel environment lets every seat of `to_act()` act in the same step instead
(sealed bids are built side by side, a card per seat per step); seats with nothing to do have an
empty mask and their action is ignored.

Rewards come at the end: +1 for a winner (a shared win too), -1 for every other seat; `reward="margin"`
gives each seat its final margin over the best other seat instead (`episode.margin_rewards`). Episodes are
finite: a seat that stalls one move past `episode.MOVE_STEPS` actions truncates the game and scores -1
(`merchantry.rl.episode`). `history=N` appends the seat's observations at the start of its last N moves
(past auctions, bids and markets as it saw them). `state()` is the global state: every seat's observation,
seat by seat (for centralised critics; an agent's own observation never holds another seat's secrets).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from merchantry.engine import State
from merchantry.rl.encoding import BOUND
from merchantry.rl.table import ParallelStep, Table


def env(
    game: str,
    players: int | None = None,
    render_mode: str | None = None,
    reward: str = "win",
    history: int = 0,
    **options: Any,
) -> MerchantryEnv:
    """The AEC environment of `game` for `players` seats (default: the game's minimum), with the game's
    `options` (as `game.options()` lists them)."""
    return MerchantryEnv(game, players, render_mode, options, reward=reward, history=history)


def parallel_env(
    game: str,
    players: int | None = None,
    render_mode: str | None = None,
    reward: str = "win",
    history: int = 0,
    **options: Any,
) -> MerchantryParallelEnv:
    """The parallel environment of `game`: every seat of `to_act()` acts in each step."""
    return MerchantryParallelEnv(game, players, render_mode, options, reward=reward, history=history)


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class Spaces:
    """What both environments declare: agents, spaces, the global state; built once per environment."""

    def __init__(self, table: Table):
        self.possible_agents = [agent_name(seat) for seat in range(table.players)]
        observation = spaces.Dict(
            {
                "observation": spaces.Box(-BOUND, BOUND, (table.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (len(table.action_ids),), np.int8),
            }
        )
        self.observation_spaces: dict[str, spaces.Space[Any]] = dict.fromkeys(
            self.possible_agents, observation
        )
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            a: spaces.Discrete(len(table.action_ids)) for a in self.possible_agents
        }
        self.state_space = spaces.Box(-BOUND, BOUND, (table.view_size * table.players,), np.float32)
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}


class Shared:
    """The constructor and the methods the AEC and the parallel environment have in common."""

    table: Table
    render_mode: str | None
    observation_spaces: dict[str, spaces.Space[Any]]
    action_spaces: dict[str, spaces.Space[Any]]

    def _set_up(
        self,
        game: str,
        players: int | None,
        render_mode: str | None,
        options: dict[str, Any] | None,
        reward: str,
        history: int,
    ) -> Spaces:
        self.table = Table(game, players, options, reward, history)
        self.render_mode = render_mode
        declared = Spaces(self.table)
        self.possible_agents = declared.possible_agents
        self.observation_spaces = declared.observation_spaces
        self.action_spaces = declared.action_spaces
        self.state_space = declared.state_space
        self.seats = declared.seat_of
        return declared

    @property
    def game_state(self) -> State | None:
        """The engine state (the real one: every seat's secrets; agents see only `observe`)."""
        return self.table.state

    def state(self) -> np.ndarray:
        return self.table.global_state()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.table.state is None:
            return None
        return self.table.render()

    def close(self) -> None:
        self.table.state = None


class MerchantryEnv(Shared, AECEnv):  # type: ignore[misc]
    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}  # see parallel_env instead

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        options: dict[str, Any] | None = None,
        reward: str = "win",
        history: int = 0,
    ):
        AECEnv.__init__(self)
        self._set_up(game, players, render_mode, options, reward, history)
        self.game = self.table.game
        self.options = self.table.options
        self.players = self.table.players
        self.action_ids = self.table.action_ids
        self.metadata = {**self.metadata, "name": f"merchantry_{game}_v0"}

    def seat_of(self, agent: str) -> int:
        return self.seats[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: the same seed gives the same game (the game's options are the environment's)."""
        state = self.table.new(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[state.to_act()[0]]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.table.observe(self.seats[agent], agent == self.agent_selection)

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """AECEnv's `last`, observing the selected agent without the detour through `observe`: it is
        asked once per step."""
        agent = self.agent_selection
        observation = self.table.observe(self.seats[agent], True) if observe else None
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        state = self.table.state
        assert state is not None
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: pass an action id")
        rewards = self.table.step(self.seats[agent], action)
        self._cumulative_rewards[agent] = 0.0
        if rewards is None:  # play goes on; every reward stays 0 until the end
            self.agent_selection = self.possible_agents[self.table.first_to_act()]
            return
        over = state.is_over()
        for other, reward in zip(self.agents, rewards, strict=True):
            self.rewards[other] = reward
            self.terminations[other] = over
            self.truncations[other] = not over
        self._accumulate_rewards()


class MerchantryParallelEnv(Shared, ParallelEnv):  # type: ignore[misc]
    """Every seat of `to_act()` acts in each step, in seat order; the others' actions are ignored (their
    mask is empty). The seats of one step act on what they saw before it: in a simultaneous step nobody
    sees another seat's choice until the step is over (a sealed bid), so the order does not matter.
    When an earlier seat's action does change what a later one sees (its answer closed an offer, and the
    turn goes on), the later seat's action is not applied: it acts again on what it now
    sees, in the next step."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        options: dict[str, Any] | None = None,
        reward: str = "win",
        history: int = 0,
    ):
        self._set_up(game, players, render_mode, options, reward, history)
        self.game = self.table.game
        self.players = self.table.players
        self.metadata = {**self.metadata, "name": f"merchantry_{game}_parallel_v0"}
        self.agents: list[str] = []

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        self.table.new(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return self.table.observe_all(self.possible_agents)

    def step(self, actions: dict[str, int]) -> ParallelStep:
        assert self.table.state is not None and self.agents, "call reset() first"
        observations, rewards, terminations, truncations, infos = self.table.step_together(
            actions, self.possible_agents
        )
        if terminations[self.agents[0]] or truncations[self.agents[0]]:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

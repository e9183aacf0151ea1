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

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from merchantry import games
from merchantry.engine import State
from merchantry.i18n import Translator
from merchantry.rl.encoding import BOUND, action_space, encoding_of
from merchantry.rl.episode import Episode, check_reward, final_rewards


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


class Table:
    """One game as both environments see it: the engine state, the episode's counts and the numbers."""

    def __init__(
        self, game: str, players: int | None, options: dict[str, Any] | None, reward: str, history: int
    ):
        self.game = games.get(game)
        self.options = self.game.resolve_options(options or {})
        self.players = players or self.game.min_players
        self.reward = check_reward(reward)
        if history < 0:
            raise ValueError("history must be 0 or more")
        self.history = history
        self.encoding = encoding_of(game)
        self.action_ids = action_space(game, self.players)
        self.view_size = self.encoding.observation_size(self.players)
        self.size = self.view_size * (1 + history)
        self.state: State | None = None
        self.episode = Episode(self.players, history)

    def new(self, seed: int | None) -> State:
        game_seed = seed if seed is not None else random.SystemRandom().getrandbits(63)
        self.state = self.game.new_game(players=self.players, seed=game_seed, **self.options)
        self.episode = Episode(self.players, self.history)
        return self.state

    def observation_space(self) -> spaces.Dict:
        return spaces.Dict(
            {
                "observation": spaces.Box(-BOUND, BOUND, (self.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (len(self.action_ids),), np.int8),
            }
        )

    def view_numbers(self, seat: int) -> list[float]:
        assert self.state is not None
        return self.encoding.observe(self.state.view(seat), self.players)

    def observe(self, seat: int, may_act: bool) -> dict[str, np.ndarray]:
        assert self.state is not None
        numbers = self.view_numbers(seat) + self.episode.history_features(seat, self.view_size)
        mask = np.zeros(len(self.action_ids), np.int8)
        if may_act and not self.state.is_over():
            mask[:] = self.action_ids.mask(self.state, seat)
        return {"observation": np.asarray(numbers, np.float32), "action_mask": mask}

    def play(self, seat: int, action: int) -> None:
        """Apply `seat`'s action id (IllegalAction, a ValueError, if it is not legal now)."""
        assert self.state is not None
        if self.history and not self.episode.move[seat]:  # the first action of a move: keep what it saw
            self.episode.before(seat, self.view_numbers(seat))
        self.state.apply(seat, self.action_ids.action(self.state, seat, int(action)))
        self.episode.after(self.state, seat, int(action))

    def end_rewards(self) -> list[float] | None:
        """The rewards when the episode has just ended (terminated or truncated), else None."""
        assert self.state is not None
        if self.state.is_over():
            return final_rewards(self.state, self.reward)
        if self.episode.truncated():
            return self.episode.truncation_rewards()
        return None

    def global_state(self) -> np.ndarray:
        return np.asarray([x for seat in range(self.players) for x in self.view_numbers(seat)], np.float32)

    def global_state_space(self) -> spaces.Box:
        return spaces.Box(-BOUND, BOUND, (self.view_size * self.players,), np.float32)

    def render(self) -> str:
        assert self.state is not None
        translator = Translator(self.game.name)
        return "\n".join(translator.event(e) for e in self.state.view(None)["log"][-10:])


class MerchantryEnv(AECEnv):  # type: ignore[misc]
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
        super().__init__()
        self.table = Table(game, players, options, reward, history)
        self.game = self.table.game
        self.options = self.table.options
        self.players = self.table.players
        self.action_ids = self.table.action_ids
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"merchantry_{game}_v0"}
        self.possible_agents = [agent_name(seat) for seat in range(self.players)]
        self.observation_spaces = dict.fromkeys(self.possible_agents, self.table.observation_space())
        self.action_spaces = {a: spaces.Discrete(len(self.action_ids)) for a in self.possible_agents}
        self.state_space = self.table.global_state_space()

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

    def seat_of(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: the same seed gives the same game (the game's options are the environment's)."""
        state = self.table.new(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(state.to_act()[0])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.table.observe(self.seat_of(agent), agent == self.agent_selection)

    def step(self, action: int | None) -> None:
        assert self.table.state is not None
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if action is None:
            raise ValueError(f"{agent} must act: pass an action id")
        self.table.play(self.seat_of(agent), int(action))
        rewards = self.table.end_rewards()
        if rewards is not None:
            over = self.table.state.is_over()
            for other, reward in zip(self.agents, rewards, strict=True):
                self.rewards[other] = reward
                self.terminations[other] = over
                self.truncations[other] = not over
        else:
            self.agent_selection = agent_name(self.table.state.to_act()[0])
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.table.state is None:
            return None
        return self.table.render()

    def close(self) -> None:
        self.table.state = None


class MerchantryParallelEnv(ParallelEnv):  # type: ignore[misc]
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
        self.table = Table(game, players, options, reward, history)
        self.game = self.table.game
        self.players = self.table.players
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"merchantry_{game}_parallel_v0"}
        self.possible_agents = [agent_name(seat) for seat in range(self.players)]
        self.agents: list[str] = []
        self.observation_spaces = dict.fromkeys(self.possible_agents, self.table.observation_space())
        self.action_spaces = {a: spaces.Discrete(len(self.table.action_ids)) for a in self.possible_agents}
        self.state_space = self.table.global_state_space()

    @property
    def game_state(self) -> State | None:
        return self.table.state

    def state(self) -> np.ndarray:
        return self.table.global_state()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        self.table.new(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        assert self.table.state is not None
        acting = set(self.table.state.to_act())
        return {agent_name(seat): self.table.observe(seat, seat in acting) for seat in range(self.players)}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        state = self.table.state
        assert state is not None and self.agents, "call reset() first"
        acting = state.to_act()
        missing = [agent_name(seat) for seat in acting if agent_name(seat) not in actions]
        if missing:
            raise ValueError(f"{', '.join(missing)} must act: pass an action id for each")
        seen = {seat: state.view(seat) for seat in acting}
        for seat in acting:
            if seat not in state.to_act() or state.view(seat) != seen[seat]:
                continue  # an earlier seat's action ended the simultaneous step: this one acts anew
            self.table.play(seat, int(actions[agent_name(seat)]))
            if state.is_over() or self.table.episode.truncated():
                break
        observations = self._observations()
        rewards = self.table.end_rewards()
        over = state.is_over()
        done = rewards is not None
        names = self.agents
        reward_of = dict(zip(names, rewards or [0.0] * self.players, strict=True))
        terminations = {a: done and over for a in names}
        truncations = {a: done and not over for a in names}
        infos: dict[str, dict[str, Any]] = {a: {} for a in names}
        if done:
            self.agents = []
        return observations, reward_of, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.table.state is None:
            return None
        return self.table.render()

    def close(self) -> None:
        self.table.state = None

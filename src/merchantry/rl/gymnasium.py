"""Every game with an encoding as a single-agent Gymnasium environment: one seat learns, the others are
played by bots or by policies (self-play).

    import gymnasium, merchantry.rl.gymnasium
    env = gymnasium.make("merchantry/<Game>-v0", players=3, opponents="greedy")

Ids are `merchantry/<Game>-v0`, the game's name in CamelCase (`env_id`), registered when this module is
imported. The observation is the learner's encoded `view(seat)` (with `history=N`, also its observations
at the start of its last N moves); `info["action_mask"]` and `env.action_masks()` (the name sb3-contrib's
MaskablePPO asks for; it works on the made environment, through Gymnasium's wrappers) give the legal
action ids.

Opponents: a bot name (`"greedy"`, `"hard"`, ... from `merchantry.bots.names(game)`), a bot object (with
`choose(world, seat, rng)`), a policy (a callable `(observation, action_mask) -> action id`, or an object
with sb3's `predict(observation, action_masks=mask)`, such as a trained model or `snapshot(model)`), or a
list with one of these per other seat. `env.unwrapped.set_opponents(...)` changes them between episodes
(self-play against the learner's past selves). Bots choose in worlds sampled for their seats; policies see
their own seat's observation and mask, like the learner (ENGINE principle 2).

The reward comes at the end: +1 for a win (shared wins too), -1 otherwise; `reward="margin"` gives the
final margin over the best other seat in [-1, 1] instead. An illegal action ends the episode with reward
-1 (so that unmasked agents learn the rules too), and `info["illegal"]` says so. Episodes are finite: a
seat that stalls one move past `episode.MOVE_STEPS` actions truncates it (`truncated=True`), and the
learner scores -1 if it was the one stalling, 0 if an opponent was (`merchantry.rl.episode`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.envs.registration import WrapperSpec

from merchantry import bots, games
from merchantry.engine import State
from merchantry.rl.encoding import BOUND
from merchantry.rl.table import Table

Policy = Callable[[np.ndarray, np.ndarray], int]


def env_id(game: str) -> str:
    return "merchantry/" + "".join(part.title() for part in game.split("_")) + "-v0"


def snapshot(model: Any, deterministic: bool = False) -> Policy:
    """A frozen copy of a policy with sb3's `predict(observation, action_masks=...)` (MaskablePPO, or its
    `.policy`), as an opponent: later training of `model` does not change it."""
    frozen = copy.deepcopy(getattr(model, "policy", model))

    def act(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = frozen.predict(observation, action_masks=mask, deterministic=deterministic)
        return int(action)

    return act


def as_policy(opponent: Any) -> Policy | None:
    """`opponent` as a policy callable, or None when it is a bot (something with `choose`)."""
    if hasattr(opponent, "choose"):
        return None
    if hasattr(opponent, "predict"):

        def act(observation: np.ndarray, mask: np.ndarray) -> int:
            action, _ = opponent.predict(observation, action_masks=mask, deterministic=False)
            return int(action)

        return act
    if callable(opponent):
        policy: Policy = opponent
        return policy
    raise TypeError(f"an opponent is a bot name, a bot, or a policy, not {opponent!r}")


class SeatEnv(gymnasium.Env[np.ndarray, np.int64]):
    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        seat: int = 0,
        opponents: Any = "random",
        render_mode: str | None = None,
        options: dict[str, Any] | None = None,
        reward: str = "win",
        history: int = 0,
    ):
        self.table = Table(game, players, options, reward, history)
        self.game = self.table.game
        self.players = self.table.players
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}")
        self.seat = seat
        self.options = self.table.options
        self.action_ids = self.table.action_ids
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-BOUND, BOUND, (self.table.size,), np.float32)
        self.action_space = spaces.Discrete(len(self.action_ids))
        self.bot_rng = random.Random(0)
        self.set_opponents(opponents)

    @property
    def state(self) -> State | None:
        """The engine state (the real one, with every seat's secrets)."""
        return self.table.state

    def set_opponents(self, opponents: Any) -> None:
        """Who plays the other seats from the next action on: one opponent for all, or one per other seat
        (a list in seat order, without the learner's)."""
        others = [s for s in range(self.players) if s != self.seat]
        if isinstance(opponents, Sequence) and not isinstance(opponents, str):
            if len(opponents) != len(others):
                raise ValueError(f"give one opponent per other seat ({len(others)}), or one for all")
            chosen = dict(zip(others, opponents, strict=True))
        else:
            chosen = dict.fromkeys(others, opponents)
        self.opponents = {s: bots.get(o, self.game) if isinstance(o, str) else o for s, o in chosen.items()}
        self.policies = {s: as_policy(o) for s, o in self.opponents.items()}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        self.bot_rng = random.Random(int(self.np_random.integers(2**62)))
        self.table.new(game_seed)
        self._opponents_move()
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        table, state = self.table, self.table.state
        assert state is not None, "call reset() first"
        action_id = int(action)
        if table.ended() or not table.legal(self.seat).allows(action_id):
            return self._observation(), -1.0, True, False, {**self._info(), "illegal": True}
        table.play(self.seat, action_id)
        self._opponents_move()
        rewards = table.end_rewards()
        reward = 0.0 if rewards is None else rewards[self.seat]
        over = state.is_over()
        return self._observation(), reward, over, rewards is not None and not over, self._info()

    def _opponents_move(self) -> None:
        """Let the opponents act until the learner must act, or the episode has ended."""
        table, policies = self.table, self.policies
        assert table.state is not None
        while not table.ended():
            seat = self._first_waiting()
            if seat < 0:
                return
            policy = policies[seat]
            if policy is None:
                action = bots.play_turn(table.state, seat, self.opponents[seat], self.bot_rng)
                action_id = self.action_ids.id_of(action)
            else:
                action_id = int(policy(table.observation(seat), table.flags(seat)))
            table.play(seat, action_id)

    def _first_waiting(self) -> int:
        """The first seat of `to_act()` other than the learner's, or -1 if there is none."""
        learner = self.seat
        for seat in self.table.acting():
            if seat != learner:
                return seat
        return -1

    def action_masks(self) -> np.ndarray:
        """The legal action ids of the learner (all False once the episode has ended): a new array (users keep
        what an environment returns; gymnasium's checker holds it to that)."""
        flags: np.ndarray = self.table.flags(self.seat, may_act=not self.table.episode.truncated()).copy()
        return flags

    def _observation(self) -> np.ndarray:
        return self.table.observation(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.table.state is None:
            return None
        return str(self.table.state.view(self.seat))


class ActionMasks(gymnasium.Wrapper[Any, Any, Any, Any], gymnasium.utils.RecordConstructorArgs):
    """Added outermost by `gymnasium.make`, so that `env.action_masks()` answers on the made environment
    (Gymnasium's own wrappers no longer pass unknown attributes through)."""

    def __init__(self, env: gymnasium.Env[Any, Any]):
        gymnasium.utils.RecordConstructorArgs.__init__(self)
        gymnasium.Wrapper.__init__(self, env)

    def action_masks(self) -> np.ndarray:
        masks: np.ndarray = self.env.get_wrapper_attr("action_masks")()
        return masks


def register_all() -> list[str]:
    """Register `merchantry/<Game>-v0` for every game with an encoding; returns the ids."""
    ids = []
    wrapper = WrapperSpec("ActionMasks", f"{__name__}:ActionMasks", {})
    for name in games.names():
        if games.package(name).encoding is None:
            continue
        ids.append(env_id(name))
        if env_id(name) not in gymnasium.registry:
            gymnasium.register(
                id=env_id(name),
                entry_point=f"{__name__}:SeatEnv",
                kwargs={"game": name},
                additional_wrappers=(wrapper,),
            )
    return ids


IDS = register_all()

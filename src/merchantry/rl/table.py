"""What the three adapters (PettingZoo, Gymnasium, OpenSpiel) share: one game as numbers. The engine state,
the episode's counts (`merchantry.rl.episode`), each seat's observer and the legal actions of the position,
worked out once per position and reused by the mask, the legal ids and the step that follows.

Speed (issue 30): a step through an adapter costs the engine's step and little more. Observations are
encoded from the state by the game's observer (`encoding.observer`, the same numbers as its encoding of
`view(seat)`, which the tests keep as the reference), each seat's observer rewriting only the parts of its
observation that changed; the legal actions of a position are asked of the engine once, whatever asks
for them (the mask, then the step that parses the chosen id).
"""

from __future__ import annotations

import copy
import random
from typing import Any, SupportsIndex

import numpy as np

from merchantry import games
from merchantry.engine import State
from merchantry.errors import IllegalAction
from merchantry.i18n import Translator
from merchantry.rl.encoding import ActionSpace, Observer, action_space, encoding_of, observer_of
from merchantry.rl.episode import Episode, check_reward, final_rewards

# what a parallel step returns: the observations, rewards, terminations, truncations and infos, by agent
ParallelStep = tuple[
    dict[str, dict[str, np.ndarray]],
    dict[str, float],
    dict[str, bool],
    dict[str, bool],
    dict[str, dict[str, Any]],
]


class Legal:
    """The legal actions of one seat in one position: the mask (int8, and as bools for the policies and
    `action_masks`), the actions with their ids side by side (in the order of `legal_actions`), and the ids
    in increasing order. The mask and the sorted ids are worked out when first asked for: OpenSpiel never
    asks for the mask, the AEC step never for the sorted ids. Two lists, not a dict by id: a step looks up
    one id among a few dozen, and building the dict cost more than every such lookup."""

    def __init__(self, space: ActionSpace, actions: list[Any], action_ids: list[int]):
        self.space, self.actions, self.action_ids = space, actions, action_ids
        self.built: np.ndarray | None = None
        self.sorted: list[int] | None = None

    @property
    def mask(self) -> np.ndarray:
        mask = self.built
        if mask is None:
            mask = self.built = self.space.mask_of(self.action_ids)
        return mask

    @property
    def flags(self) -> np.ndarray:
        flags: np.ndarray = self.mask.view(np.bool_)  # read-only, as the mask is
        return flags

    @property
    def ids(self) -> list[int]:
        if self.sorted is None:
            self.sorted = sorted(set(self.action_ids))
        return self.sorted

    def allows(self, action_id: int) -> bool:
        return action_id in self.action_ids

    def action(self, action_id: int) -> Any | None:
        """The legal action with this id, or None if it is not legal."""
        action_ids = self.action_ids
        for index in range(len(action_ids)):
            if action_ids[index] == action_id:
                return self.actions[index]
        return None


class Table:
    """One game as every adapter sees it: the engine state, the episode's counts and the numbers."""

    state: State | None
    observers: list[Observer]
    legal_now: list[Legal | None]
    current_now: tuple[int | None, int] | None
    acting_now: list[int] | None

    def __init__(
        self,
        game: str,
        players: int | None,
        options: dict[str, Any] | None = None,
        reward: str = "win",
        history: int = 0,
        like: Table | None = None,
    ):
        if like is not None:  # a copy (`__deepcopy__`): the compiled class has no __new__ without __init__
            self._share(like)
            return
        self.game = games.get(game)
        self.options = self.game.resolve_options(options or {})
        self.players = players or self.game.min_players
        if not self.game.min_players <= self.players <= self.game.max_players:
            raise ValueError(f"{game} takes {self.game.min_players}-{self.game.max_players} players")
        self.reward = check_reward(reward)
        if history < 0:
            raise ValueError("history must be 0 or more")
        self.history = history
        self.encoding = encoding_of(game)
        self.action_ids = action_space(game, self.players)
        self.view_size = self.encoding.observation_size(self.players)
        self.size = self.view_size * (1 + history)
        self.no_actions = self.action_ids.no_actions
        self.state = None
        self.episode = Episode(self.players, history)
        self.observers = [observer_of(self.encoding, self.players, s) for s in range(self.players)]
        self.legal_now = [None] * self.players  # per seat, for the position as it is: forgotten by every play
        self.current_now = None  # (pinned, OpenSpiel's current player) for the position as it is: likewise
        self.acting_now = None  # its `to_act()`: likewise

    def _share(self, other: Table) -> None:
        """Everything of `other` but its state and episode: the game, its numbers and the observers (their
        caches are keyed on what they read, so any state may ask them), shared."""
        self.game, self.options, self.players = other.game, other.options, other.players
        self.reward, self.history, self.encoding = other.reward, other.history, other.encoding
        self.action_ids, self.view_size, self.size = other.action_ids, other.view_size, other.size
        self.no_actions, self.observers = other.no_actions, other.observers
        self.state = other.state
        self.episode = other.episode
        self.legal_now = [None] * self.players  # its own: `_forget_position` empties it in place
        self._forget_position()

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        """A copy for a cloned OpenSpiel state: the engine state cloned (never deep-copied), the episode's
        counts copied; the game, its numbers and the observers shared."""
        other = Table(self.game.name, self.players, like=self)
        other.state = None if self.state is None else self.state.clone()
        other.episode = copy.deepcopy(self.episode, memo)
        return other

    def new(self, seed: int | None) -> State:
        game_seed = seed if seed is not None else random.SystemRandom().getrandbits(63)
        self.set_state(self.game.new_game(players=self.players, seed=game_seed, **self.options))
        self.episode = Episode(self.players, self.history)
        assert self.state is not None
        return self.state

    def set_state(self, state: State) -> None:
        self.state = state
        self._forget_position()

    def _forget_position(self) -> None:
        """Drop what is kept for the position as it was (legal lists, `to_act()`, OpenSpiel's current
        player)."""
        legal_now = self.legal_now
        for seat in range(self.players):  # in place: a play forgets them, a new list each time cost more
            legal_now[seat] = None
        self.current_now = None
        self.acting_now = None

    def acting(self) -> list[int]:
        """`to_act()` of the position, asked of the engine once (the episode, the next agent and the
        observations each ask for it)."""
        known = self.acting_now
        if known is None:
            assert self.state is not None
            known = self.acting_now = self.state.to_act()
        return known

    # --- actions ------------------------------------------------------------------------------------

    def legal(self, seat: int) -> Legal:
        """The legal actions of `seat` now, asked of the engine once per position. (Not kept per list of
        actions across positions: a game may meet a new list in four positions out of five, and a lookup that
        misses costs more than it saves elsewhere.)"""
        known = self.legal_now[seat]
        if known is not None:
            return known
        assert self.state is not None
        space = self.action_ids
        by_action = space.by_action
        actions = self.state.legal_actions(seat)
        action_ids: list[int] = []
        for action in actions:
            try:
                action_ids.append(by_action[action])
            except (KeyError, TypeError):  # met for the first time, or unhashable
                action_ids.append(space.id_of_action(action))
        legal = Legal(space, actions, action_ids)
        self.legal_now[seat] = legal
        return legal

    def mask(self, seat: int, may_act: bool = True) -> np.ndarray:
        """1 for each legal action id of `seat` (all 0 once the game is over or when it may not act).
        Read-only: the same array serves every caller of this position."""
        assert self.state is not None
        if not may_act or self.state.is_over():
            return self.no_actions
        return self.legal(seat).mask

    def flags(self, seat: int, may_act: bool = True) -> np.ndarray:
        """`mask` as bools (read-only, shared likewise): what policies and `action_masks` take."""
        assert self.state is not None
        if not may_act or self.state.is_over():
            return self.action_ids.no_flags
        return self.legal(seat).flags

    def play(self, seat: int, action: SupportsIndex) -> None:
        """Apply `seat`'s action id (an int, or numpy's; IllegalAction, a ValueError, if it is not legal
        now)."""
        state = self.state
        assert state is not None
        action_id = int(action)
        if self.history and not self.episode.move[seat]:  # the first action of a move: keep what it saw
            self.episode.before(seat, self.view_numbers(seat))
        chosen = self.legal(seat).action(action_id)
        if chosen is None:  # not legal now: the engine says why, and the state is unchanged
            if not 0 <= action_id < len(self.action_ids):
                raise IllegalAction(f"no action has id {action_id} (0..{len(self.action_ids) - 1})")
            chosen = self.action_ids.action(state, seat, action_id)
        try:
            state.apply(seat, chosen)
        finally:
            self._forget_position()  # a new position (or, had apply raised, the same one)
        self.episode.after(self.acting(), seat, action_id)

    def step(self, seat: int, action: SupportsIndex) -> list[float] | None:
        """`play`, then `end_rewards`: an AEC step in one call."""
        self.play(seat, action)
        return self.end_rewards()

    def first_to_act(self) -> int:
        return self.acting()[0]

    def ended(self) -> bool:
        """Over, or truncated (`episode`)."""
        assert self.state is not None
        return self.state.is_over() or self.episode.truncated()

    def current_player(self, pinned: int | None, ended: int) -> int:
        """OpenSpiel's current player: `ended` once the episode has ended, else `pinned` if it is to act
        (a world's first mover), else the first seat of `to_act()`. Worked out once per position (and
        pinned seat): pyspiel and its callers ask for it four times or more per action."""
        known = self.current_now
        if known is not None and known[0] == pinned:
            return known[1]
        current = self._current_player(pinned, ended)
        self.current_now = (pinned, current)
        return current

    def _current_player(self, pinned: int | None, ended: int) -> int:
        if self.ended():
            return ended
        acting = self.acting()
        return pinned if pinned is not None and pinned in acting else acting[0]

    # --- numbers ------------------------------------------------------------------------------------

    def view_numbers(self, seat: int) -> np.ndarray:
        """The seat's observation of the position (float32, a new array)."""
        assert self.state is not None
        return self.observers[seat].observe(self.state)

    def view_list(self, seat: int) -> list[float]:
        """`view_numbers(seat)` as a list of floats (a new one): the observer's list of its numbers, copied
        (OpenSpiel's tensors are lists; `tolist()` of a thousand numbers costs more than an engine step)."""
        assert self.state is not None
        return self.observers[seat].listed(self.state)

    def observation(self, seat: int) -> np.ndarray:
        """The seat's observation, followed by its observations at the start of its last `history` moves."""
        numbers = self.view_numbers(seat)
        if not self.history:
            return numbers
        return np.concatenate([numbers, *self.episode.history_features(seat, self.view_size)])

    def observe(self, seat: int, may_act: bool) -> dict[str, np.ndarray]:
        return {"observation": self.observation(seat), "action_mask": self.mask(seat, may_act)}

    def observe_all(self, names: list[str]) -> dict[str, dict[str, np.ndarray]]:
        """Every seat's `observe`, by its agent's name (the parallel API's observations)."""
        acting = self.acting()
        return {names[seat]: self.observe(seat, seat in acting) for seat in range(self.players)}

    def step_together(self, actions: dict[str, Any], names: list[str]) -> ParallelStep:
        """A parallel step (`MerchantryParallelEnv.step`): every seat of `to_act()` acts, `actions` by the
        agents' `names`; returns the observations, rewards, terminations, truncations and infos."""
        state = self.state
        assert state is not None
        acting = self.acting()
        missing = [names[seat] for seat in acting if names[seat] not in actions]
        if missing:
            raise ValueError(f"{', '.join(missing)} must act: pass an action id for each")
        # What the later seats of a simultaneous step saw before it: if an earlier seat's action changes it
        # (its answer closed an offer), they act anew in the next step. Compared as bytes: numpy's
        # `array_equal` costs some 5 µs a call, `tobytes()` a tenth of it.
        seen = {seat: self.view_numbers(seat).tobytes() for seat in acting[1:]}
        for seat in acting:
            before = seen.get(seat)
            if before is not None and (
                seat not in self.acting() or self.view_numbers(seat).tobytes() != before
            ):
                continue
            self.play(seat, actions[names[seat]])
            if state.is_over() or self.episode.truncated():
                break
        observations = self.observe_all(names)
        rewards = self.end_rewards()
        over = state.is_over()
        done = rewards is not None
        if rewards is None:
            rewards = [0.0] * self.players
        reward_of = {names[seat]: rewards[seat] for seat in range(self.players)}
        terminations = dict.fromkeys(names, done and over)
        truncations = dict.fromkeys(names, done and not over)
        infos: dict[str, dict[str, Any]] = {name: {} for name in names}
        return observations, reward_of, terminations, truncations, infos

    def end_rewards(self) -> list[float] | None:
        """The rewards when the episode has just ended (terminated or truncated), else None."""
        assert self.state is not None
        if self.state.is_over():
            return final_rewards(self.state, self.reward)
        if self.episode.truncated():
            return self.episode.truncation_rewards()
        return None

    def global_state(self) -> np.ndarray:
        return np.concatenate([self.view_numbers(seat) for seat in range(self.players)])

    def render(self) -> str:
        assert self.state is not None
        translator = Translator(self.game.name)
        return "\n".join(translator.event(e) for e in self.state.view(None)["log"][-10:])

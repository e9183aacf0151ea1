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
from typing import Any

import numpy as np

from merchantry import games
from merchantry.engine import State
from merchantry.errors import IllegalAction
from merchantry.i18n import Translator
from merchantry.rl.encoding import Observer, action_space, encoding_of, observer_of
from merchantry.rl.episode import Episode, check_reward, final_rewards


class Legal:
    """The legal actions of one seat in one position: their ids (increasing), the mask, the actions by id."""

    __slots__ = ("ids", "mask", "by_id")

    def __init__(self, ids: list[int], mask: np.ndarray, by_id: dict[int, Any]):
        self.ids, self.mask, self.by_id = ids, mask, by_id


class Table:
    """One game as every adapter sees it: the engine state, the episode's counts and the numbers."""

    def __init__(
        self,
        game: str,
        players: int | None,
        options: dict[str, Any] | None = None,
        reward: str = "win",
        history: int = 0,
    ):
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
        self.no_actions = np.zeros(len(self.action_ids), np.int8)
        self.no_actions.flags.writeable = False  # shared by every empty mask
        self.state: State | None = None
        self.episode = Episode(self.players, history)
        self.observers: list[Observer] = [
            observer_of(self.encoding, self.players, s) for s in range(self.players)
        ]
        self.legal_now: dict[int, Legal] = {}  # per seat, for the position as it is: forgotten by every play

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        """A copy for a cloned OpenSpiel state: the engine state cloned (never deep-copied), the episode's
        counts copied; the game, its numbers and the observers (their caches are keyed on what they read)
        shared."""
        other = copy.copy(self)
        other.state = None if self.state is None else self.state.clone()
        other.episode = copy.deepcopy(self.episode, memo)
        other.legal_now = {}
        return other

    def new(self, seed: int | None) -> State:
        game_seed = seed if seed is not None else random.SystemRandom().getrandbits(63)
        self.set_state(self.game.new_game(players=self.players, seed=game_seed, **self.options))
        self.episode = Episode(self.players, self.history)
        assert self.state is not None
        return self.state

    def set_state(self, state: State) -> None:
        self.state = state
        self.legal_now = {}

    # --- actions ------------------------------------------------------------------------------------

    def legal(self, seat: int) -> Legal:
        """The legal actions of `seat` now, asked of the engine once per position."""
        known = self.legal_now.get(seat)
        if known is not None:
            return known
        assert self.state is not None
        space = self.action_ids
        by_action, id_of = space.by_action, space.id_of_action
        by_id = {}
        for action in self.state.legal_actions(seat):
            try:
                by_id[by_action[action]] = action
            except (KeyError, TypeError):  # met for the first time, or unhashable
                by_id[id_of(action)] = action
        ids = sorted(by_id)
        legal = self.legal_now[seat] = Legal(ids, space.mask_of(ids), by_id)
        return legal

    def mask(self, seat: int, may_act: bool = True) -> np.ndarray:
        """1 for each legal action id of `seat` (all 0 once the game is over or when it may not act).
        Read-only: the same array serves every caller of this position."""
        assert self.state is not None
        if not may_act or self.state.is_over():
            return self.no_actions
        return self.legal(seat).mask

    def play(self, seat: int, action: int) -> None:
        """Apply `seat`'s action id (IllegalAction, a ValueError, if it is not legal now)."""
        state = self.state
        assert state is not None
        action_id = int(action)
        if self.history and not self.episode.move[seat]:  # the first action of a move: keep what it saw
            self.episode.before(seat, self.view_numbers(seat))
        chosen = self.legal(seat).by_id.get(action_id)
        if chosen is None:  # not legal now: the engine says why, and the state is unchanged
            if not 0 <= action_id < len(self.action_ids):
                raise IllegalAction(f"no action has id {action_id} (0..{len(self.action_ids) - 1})")
            chosen = self.action_ids.action(state, seat, action_id)
        try:
            state.apply(seat, chosen)
        finally:
            self.legal_now = {}  # a new position (or, had apply raised, the same one: asked again)
        self.episode.after(state, seat, action_id)

    # --- numbers ------------------------------------------------------------------------------------

    def view_numbers(self, seat: int) -> np.ndarray:
        """The seat's observation of the position (float32, a new array)."""
        assert self.state is not None
        return self.observers[seat].observe(self.state)

    def observation(self, seat: int) -> np.ndarray:
        """The seat's observation, followed by its observations at the start of its last `history` moves."""
        numbers = self.view_numbers(seat)
        if not self.history:
            return numbers
        return np.concatenate([numbers, *self.episode.history_features(seat, self.view_size)])

    def observe(self, seat: int, may_act: bool) -> dict[str, np.ndarray]:
        return {"observation": self.observation(seat), "action_mask": self.mask(seat, may_act)}

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

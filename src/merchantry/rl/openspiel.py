"""Every game with an encoding as an OpenSpiel Python game:

    from merchantry.rl import openspiel
    openspiel.register()
    game = pyspiel.load_game("python_merchantry_" + GAME, {"players": 4})

Sequential dynamics: the player to move is the first seat of `to_act()`, so a simultaneous step (sealed
bids, an offer every seat answers) is taken seat after seat, each seeing only its own `view(seat)`.
Chance is sampled inside the state (SAMPLED_STOCHASTIC): a game's deal and later draws come from its seed
(the `seed` parameter, or a fresh one per game when it is -1). Information states and observations come from
`view(player)` alone: the information state string is the view with its log (what the player saw happen),
the observation string the view without it, the observation tensor the game's encoding. `resampler` draws
a world for OpenSpiel's ISMCTS bot with `sample_hidden` (`bot.set_resampler(openspiel.resampler)`).
Returns are +1 for a winner (shared wins too) and -1 for every other seat. Needs `merchantry[openspiel]`.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from merchantry import games
from merchantry.engine import State
from merchantry.rl.encoding import action_space, encoding_of
from merchantry.rl.pettingzoo import final_rewards

MAX_GAME_LENGTH = 20_000  # actions: far above the longest random game seen (a few thousand)


def short_name(game: str) -> str:
    return f"python_merchantry_{game}"


def game_type(name: str) -> pyspiel.GameType:
    game = games.get(name)
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Merchantry {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": game.min_players, "seed": -1},
    )


class MerchantryGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, name: str, params: dict[str, Any] | None = None):
        params = {**game_type(name).parameter_specification, **(params or {})}
        self.merchantry_game = games.get(name)
        self.players = int(params["players"])
        self.seed = int(params["seed"])
        self.action_ids = action_space(name, self.players)
        self.encoding = encoding_of(name)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.action_ids),
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type(name), info, params)
        self.games_made = 0

    def new_initial_state(self) -> MerchantryState:
        seed = self.seed if self.seed >= 0 else random.SystemRandom().getrandbits(63)
        return MerchantryState(self, self.merchantry_game.new_game(players=self.players, seed=seed))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self)


class MerchantryState(pyspiel.State):  # type: ignore[misc]
    """Holds the engine state and plain data only: OpenSpiel clones a Python state with copy.deepcopy."""

    def __init__(self, game: MerchantryGame, state: State):
        super().__init__(game)
        self.state = state
        self.action_ids = game.action_ids

    def current_player(self) -> int:
        if self.state.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.state.to_act()[0]

    def _legal_actions(self, player: int) -> list[int]:
        mask = self.action_ids.mask(self.state, player)
        return [action_id for action_id, legal in enumerate(mask) if legal]

    def _apply_action(self, action: int) -> None:
        seat = self.current_player()
        self.state.apply(seat, self.action_ids.action(self.state, seat, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.action_ids.texts[action]

    def is_terminal(self) -> bool:
        return self.state.is_over()

    def returns(self) -> list[float]:
        return final_rewards(self.state) if self.state.is_over() else [0.0] * self.state.num_players

    def information_state_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        return json.dumps(self.state.view(seat), sort_keys=True)

    def observation_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        view = self.state.view(seat)
        view.pop("log", None)
        return json.dumps(view, sort_keys=True)

    def __str__(self) -> str:
        return json.dumps(self.state.view(None)["log"][-3:])


class Observer:
    """OpenSpiel's PyObserver interface: the game's encoding of `view(player)` as the tensor."""

    def __init__(self, game: MerchantryGame):
        self.game = game
        size = game.encoding.observation_size(game.players)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MerchantryState, player: int) -> None:
        self.tensor[:] = self.game.encoding.observe(state.state.view(player), self.game.players)

    def string_from(self, state: MerchantryState, player: int) -> str:
        return str(state.observation_string(player))


def resampler(state: MerchantryState, player: int) -> MerchantryState:
    """A world for ISMCTS drawn from what `player` has seen (`sample_hidden`), with its own random stream."""
    seed = random.SystemRandom().getrandbits(63)
    world: MerchantryState = state.clone()
    world.state = state.state.sample_hidden(player, random.Random(seed))
    return world


def game_class(name: str) -> type[MerchantryGame]:
    """A class per game, as OpenSpiel registers classes (a Game made from params alone)."""

    def __init__(self: MerchantryGame, params: dict[str, Any] | None = None) -> None:
        MerchantryGame.__init__(self, name, params)

    title = "".join(part.title() for part in name.split("_"))
    return type(f"Merchantry{title}Game", (MerchantryGame,), {"__init__": __init__})


def register() -> list[str]:
    """Register every game with an encoding with OpenSpiel; returns their short names."""
    registered = set(pyspiel.registered_names())
    names = []
    for name in games.names():
        if games.package(name).encoding is None:
            continue
        names.append(short_name(name))
        if short_name(name) not in registered:
            pyspiel.register_game(game_type(name), game_class(name))
    return names

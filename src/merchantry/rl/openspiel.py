"""Every game with an encoding as an OpenSpiel Python game:

    from merchantry.rl import openspiel
    openspiel.register()
    game = pyspiel.load_game("python_merchantry_" + GAME, {"players": 4})

Parameters: `players`, `seed` (the game's deal; -1 draws a fresh game each time), `search_seed` (the
stream `resample_from_infostate` draws its worlds from, so that a search is reproducible) and `history`
(how many past moves' observations the information state tensor holds; 0 by default, as each costs an
encoding at the start of every move).

Sequential dynamics: the player to move is the first seat of `to_act()`, so a simultaneous step (sealed
bids, an offer every seat answers) is taken seat after seat, each seeing only its own `view(seat)`.
Chance is sampled inside the state (SAMPLED_STOCHASTIC): a game's deal and later draws come from its seed.

Information states have perfect recall: the string is the player's view with its log (everything it saw
happen) and the ids of every action it took, so adding a card to a bid and taking it back is a
new information state. The information state tensor is the game's encoding of the view, the encoded views at
the start of the player's last `history` moves, and the actions of its move so far (the last `MOVE_SLOTS`
of them, and how many there were);
the observation string is the view without its log, the observation tensor the encoding alone.

`state.resample_from_infostate(player, sampler)` is a world for OpenSpiel's ISMCTSBot: `sample_hidden` for
that player with a `random.Random` drawn from the state's own search stream (seeded by `search_seed`; the
sampler OpenSpiel passes is seeded from the clock, so it is not used). Other seats' past actions are not
carried into a world (they are theirs to know). OpenSpiel's MCTSBot, by contrast, searches the very state it
is handed: given the real state it sees every hidden card (docs/rl.md, "OpenSpiel").

Returns are +1 for a winner (shared wins too) and -1 for every other seat; a game truncated because a seat
stalled (`merchantry.rl.episode`) ends with -1 for that seat and 0 for the others. Needs
`merchantry[openspiel]`.
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
from merchantry.rl.episode import EPISODE_STEPS, MOVE_STEPS, Episode, final_rewards
from merchantry.rl.table import Table

MOVE_SLOTS = 32  # the current move's actions in the information state tensor
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
UNKNOWN = -1  # in a world: "this seat's actions before the world was sampled are not known"


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
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": game.min_players, "seed": -1, "search_seed": 0, "history": 0},
    )


class MerchantryGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, name: str, params: dict[str, Any] | None = None):
        params = {**game_type(name).parameter_specification, **(params or {})}
        self.merchantry_game = games.get(name)
        self.players = int(params["players"])
        self.seed = int(params["seed"])
        self.search_seed = int(params["search_seed"])
        self.history = int(params["history"])
        self.action_ids = action_space(name, self.players)
        self.encoding = encoding_of(name)
        self.view_size = self.encoding.observation_size(self.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.action_ids),
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=EPISODE_STEPS,
        )
        super().__init__(game_type(name), info, params)

    def new_initial_state(self) -> MerchantryState:
        seed = self.seed if self.seed >= 0 else random.SystemRandom().getrandbits(63)
        state = self.merchantry_game.new_game(players=self.players, seed=seed)
        return MerchantryState(self, state, random.Random(f"search {self.search_seed}"))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self, perfect_recall)

    def information_state_size(self) -> int:
        return self.view_size * (1 + self.history) + MOVE_SLOTS + 1

    # pyspiel works a Python game's tensor shapes out by building a new initial state, and does so on every
    # `observation_tensor()` call (some 600 µs); the sizes are known.
    def observation_tensor_shape(self) -> list[int]:
        return [self.view_size]

    def observation_tensor_size(self) -> int:
        return self.view_size

    def information_state_tensor_shape(self) -> list[int]:
        return [self.information_state_size()]

    def information_state_tensor_size(self) -> int:
        return self.information_state_size()


class MerchantryState(pyspiel.State):  # type: ignore[misc]
    """Holds the adapters' shared table (the engine state, the episode, the observers) and plain data only:
    OpenSpiel clones a Python state with copy.deepcopy, which clones the engine state (`Table`)."""

    def __init__(self, game: MerchantryGame, state: State, search_rng: random.Random):
        super().__init__(game)
        self.table = Table(game.merchantry_game.name, game.players, history=game.history)
        self.table.set_state(state)
        self.action_ids = game.action_ids
        self.search_rng = search_rng
        # A world's first mover is the player it was sampled for: in a simultaneous step whose answers
        # nobody sees (an offer answered in silence) the world may draw others as still to answer before it.
        self.pinned: int | None = None

    @property
    def state(self) -> State:
        """The engine state (the real one, with every seat's secrets)."""
        state = self.table.state
        assert state is not None
        return state

    @state.setter
    def state(self, state: State) -> None:
        self.table.set_state(state)

    @property
    def episode(self) -> Episode:
        return self.table.episode

    def current_player(self) -> int:
        return self.table.current_player(self.pinned, TERMINAL)

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.table.legal(player).ids)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """pyspiel's `legal_actions`, answered here: through pyspiel's C++ and back it costs some 30 µs."""
        current = self.current_player()  # pyspiel: no legal action for another player, nor once over
        if current == TERMINAL or player not in (None, current):
            return []
        return list(self.table.legal(current).ids)

    def _apply_action(self, action: int) -> None:
        seat = self.current_player()
        self.pinned = None
        self.table.play(seat, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.action_ids.texts[action]

    def is_terminal(self) -> bool:
        return self.table.ended()

    def returns(self) -> list[float]:
        if self.state.is_over():
            return final_rewards(self.state)
        if self.episode.truncated():
            return self.episode.truncation_rewards()
        return [0.0] * self.state.num_players

    def view_numbers(self, seat: int) -> np.ndarray:
        return self.table.view_numbers(seat)

    def information_state_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        return json.dumps({"view": self.state.view(seat), "mine": self.episode.own[seat]}, sort_keys=True)

    def observation_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        view = self.state.view(seat)
        view.pop("log", None)
        return json.dumps(view, sort_keys=True)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The encoding of the player's view, as pyspiel gives it (a list), without pyspiel's round trip."""
        return self.table.view_list(self.current_player() if player is None else player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        seat = self.current_player() if player is None else player
        return self.information_state_numbers(seat).tolist()  # type: ignore[no-any-return]

    def information_state_numbers(self, seat: int) -> np.ndarray:
        move = self.episode.move[seat][-MOVE_SLOTS:]
        slots = np.zeros(MOVE_SLOTS + 1, np.float32)
        slots[: len(move)] = [(action + 1) / len(self.action_ids) for action in move]
        slots[MOVE_SLOTS] = min(len(self.episode.move[seat]), MOVE_STEPS) / MOVE_STEPS
        return np.concatenate([self.table.observation(seat), slots])

    def resample_from_infostate(self, player: int, sampler: Any = None) -> MerchantryState:
        """A world for `player`: the hidden parts drawn with `sample_hidden` from the state's search stream;
        the player's information state is the same in it. Other seats' earlier actions are left out."""
        world: MerchantryState = self.clone()
        rng = random.Random(self.search_rng.getrandbits(64))
        world.state = self.state.sample_hidden(player, rng)
        world.search_rng = random.Random(rng.getrandbits(64))
        world.pinned = player
        for seat in range(self.state.num_players):
            if seat != player:
                world.episode.own[seat] = [UNKNOWN]
                world.episode.move[seat] = []  # how long its move has lasted is not known either
                world.episode.move_steps[seat] = 0
                world.episode.past[seat] = []
        return world

    def __str__(self) -> str:
        return json.dumps(self.state.view(None)["log"][-3:])


class Observer:
    """OpenSpiel's PyObserver interface: the observation (the encoding of `view(player)`) or, with
    perfect recall asked for, the information state tensor and string."""

    def __init__(self, game: MerchantryGame, perfect_recall: bool):
        self.game = game
        self.perfect_recall = perfect_recall
        size = game.information_state_size() if perfect_recall else game.view_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MerchantryState, player: int) -> None:
        if self.perfect_recall:
            self.tensor[:] = state.information_state_numbers(player)
        else:
            self.tensor[:] = state.view_numbers(player)

    def string_from(self, state: MerchantryState, player: int) -> str:
        if self.perfect_recall:
            return str(state.information_state_string(player))
        return str(state.observation_string(player))


def resampler(state: MerchantryState, player: int) -> MerchantryState:
    """The same as `state.resample_from_infostate(player)`, for `ISMCTSBot.set_resampler` (kept for
    scripts written before the method existed)."""
    return state.resample_from_infostate(player)


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

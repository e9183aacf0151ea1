"""OpenSpiel: every game with an encoding loads with pyspiel.load_game, passes OpenSpiel's own random
simulation test, and OpenSpiel's ISMCTS bot plays it through a resampler built on sample_hidden."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")  # the optional extra merchantry[openspiel]; make test installs it

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from merchantry import games  # noqa: E402
from merchantry.rl import openspiel  # noqa: E402

NAMES = openspiel.register()


def test_every_game_is_registered():
    assert [openspiel.short_name(name) for name in games.names()] == NAMES
    assert set(NAMES) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(
    ("name", "players"),
    [
        (name, n)
        for name in games.names()
        for n in sorted({games.get(name).min_players, games.get(name).max_players})
    ],
)
def test_openspiel_random_simulation_test_passes(name, players):
    game = pyspiel.load_game(openspiel.short_name(name), {"players": players, "seed": 3})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_the_same_seed_parameter_gives_the_same_game():
    game = pyspiel.load_game(openspiel.short_name("money"), {"players": 3, "seed": 9})
    first, second = game.new_initial_state(), game.new_initial_state()
    rng = random.Random(0)
    for _ in range(40):
        assert first.information_state_string(first.current_player()) == second.information_state_string()
        action = rng.choice(first.legal_actions())
        first.apply_action(action)
        second.apply_action(action)


def test_the_resampler_keeps_what_the_player_has_seen():
    game = pyspiel.load_game(openspiel.short_name("byzanz"), {"players": 4, "seed": 2})
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    world = openspiel.resampler(state, player)
    assert world.information_state_string(player) == state.information_state_string(player)
    assert world.legal_actions() == state.legal_actions()
    assert world.state.to_dict() != state.state.to_dict()  # the hidden cards were redealt


def test_openspiel_ismcts_plays_with_the_resampler():
    game = pyspiel.load_game(openspiel.short_name("samarkand"), {"players": 3, "seed": 5})
    state = game.new_initial_state()
    rs = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 10, random_state=rs)
    bot.set_resampler(openspiel.resampler)
    for _ in range(8):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)

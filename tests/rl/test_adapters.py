"""The RL adapters: every game with an encoding, every player count, through PettingZoo's and Gymnasium's own
checks; the encodings against many random games (every legal action has an id, every id is one notation
string, observations come from the seat's view alone and stay in bounds)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")  # the optional extra merchantry[rl]; make test installs it
pettingzoo_test = pytest.importorskip("pettingzoo.test")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from merchantry import games  # noqa: E402
from merchantry.rl import gymnasium as merchantry_gym  # noqa: E402
from merchantry.rl import pettingzoo  # noqa: E402
from merchantry.rl.encoding import BOUND, action_space, encoding_of  # noqa: E402
from tests.conformance.walks import random_walk  # noqa: E402

SETUPS = [
    (name, players)
    for name in games.names()
    if games.package(name).encoding
    for players in range(games.get(name).min_players, games.get(name).max_players + 1)
]


def ids(setup):
    return f"{setup[0]}-{setup[1]}p"


def test_every_game_has_an_encoding():
    assert {name for name, _ in SETUPS} == set(games.names())


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_pettingzoo_api_and_seed_tests_pass(setup):
    name, players = setup
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the {observation, action_mask} dict is PettingZoo's own convention
        pettingzoo_test.api_test(pettingzoo.env(name, players=players), num_cycles=300)
        pettingzoo_test.seed_test(lambda: pettingzoo.env(name, players=players), num_cycles=100)


@pytest.mark.parametrize("name", sorted({name for name, _ in SETUPS}))
def test_gymnasium_check_env_passes(name):
    game = games.get(name)
    for players in {game.min_players, game.max_players}:
        env = gymnasium.make(merchantry_gym.env_id(name), players=players, opponents="random")
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no warning from the checker either
            check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_encodings_cover_every_legal_action_and_read_only_the_view(setup):
    name, players = setup
    game, encoding, space = games.get(name), encoding_of(name), action_space(name, players)
    size = encoding.observation_size(players)
    for seed in range(6):
        state = game.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        for step, _ in enumerate(random_walk(state, rng)):
            for seat in state.to_act():
                mask = space.mask(state, seat)  # raises if a legal action has no id
                assert sum(mask) == len(state.legal_actions(seat))
            if step % 11:
                continue
            seat = step % players
            seen = encoding.observe(state.view(seat), players)
            assert len(seen) == size and all(-BOUND <= x <= BOUND for x in seen)
            world = state.sample_hidden(seat, random.Random(step))
            assert encoding.observe(world.view(seat), players) == seen  # nothing hidden leaks in


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_each_action_id_is_one_notation_string_and_back(setup):
    name, players = setup
    game, space = games.get(name), action_space(name, players)
    state = game.new_game(players=players, seed=0)
    for action_id, text in enumerate(space.texts):
        action = space.action(state, 0, action_id)
        assert str(action) == text and space.id_of(action) == action_id


def test_an_agent_that_follows_the_mask_plays_a_gymnasium_game_to_the_end():
    env = gymnasium.make(merchantry_gym.env_id("grand_bazaar"), players=3, opponents="greedy")
    observation, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    done, reward, steps = False, 0.0, 0
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        observation, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        assert "illegal" not in info and observation.shape == env.observation_space.shape
        steps += 1
    assert reward in (1.0, -1.0) and steps > 27


def test_an_illegal_action_ends_the_episode_with_a_penalty():
    env = gymnasium.make(merchantry_gym.env_id("money"), players=3)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == -1.0 and terminated and info["illegal"]

"""The RL adapters: every game with an encoding, every player count, through PettingZoo's (AEC and parallel)
and Gymnasium's own checks; the encodings against many random games (every legal action has an id, every id
is one notation string, observations come from the seat's view alone and stay in bounds); self-play
opponents, the margin reward and the history option."""

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


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_pettingzoo_parallel_api_test_passes(setup):
    name, players = setup
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pettingzoo_test.parallel_api_test(pettingzoo.parallel_env(name, players=players), num_cycles=300)


def test_money_sealed_bids_are_built_side_by_side_in_the_parallel_env():
    """MO-R1: every seat builds its bid at once; a step takes a card from each, and nobody sees another's."""
    env = pettingzoo.parallel_env("money", players=3)
    observations, _ = env.reset(seed=2)
    assert all(observations[a]["action_mask"].any() for a in env.agents)  # all three bid at once
    space = env.table.action_ids
    before = {a: observations[a]["observation"].copy() for a in env.agents}
    adds = {}
    for agent in env.agents:
        legal = [space.texts[i] for i in np.flatnonzero(observations[agent]["action_mask"])]
        card = next(text for text in legal if text.startswith("add ") and "BLUFF" not in text)
        adds[agent] = space.ids[card]
    observations, rewards, terminations, truncations, _ = env.step(adds)
    assert not any(terminations.values()) and not any(truncations.values())
    for agent, action in adds.items():
        card = space.texts[action].split()[1]
        assert env.game_state.view(env.possible_agents.index(agent))["my_bid"] == [card]
        assert not np.array_equal(observations[agent]["observation"], before[agent])


def test_a_parallel_step_needs_every_acting_seat():
    env = pettingzoo.parallel_env("money", players=3)
    observations, _ = env.reset(seed=2)
    first = int(np.flatnonzero(observations["player_0"]["action_mask"])[0])
    with pytest.raises(ValueError, match="player_1, player_2 must act"):
        env.step({"player_0": first})


@pytest.mark.parametrize("make", [pettingzoo.env, pettingzoo.parallel_env])
def test_state_is_pettingzoos_global_state(make):
    env = make("money", players=3)
    env.reset(seed=1)
    state = env.state()
    assert state.shape == env.state_space.shape and env.state_space.contains(state)
    size = encoding_of("money").observation_size(3)
    seat_1 = encoding_of("money").observe(env.game_state.view(1), 3)
    assert np.allclose(state[size : 2 * size], seat_1)


def test_action_masks_answers_on_the_made_gymnasium_environment():
    env = gymnasium.make(merchantry_gym.env_id("money"), players=3)
    _, info = env.reset(seed=1)
    assert np.array_equal(env.action_masks(), info["action_mask"])


def test_opponents_may_be_policies_and_change_between_episodes():
    calls = []

    def first_legal(observation, mask):
        calls.append(observation.shape)
        return int(np.flatnonzero(mask)[0])

    env = gymnasium.make(merchantry_gym.env_id("grand_bazaar"), players=3, opponents=first_legal)
    observation, info = env.reset(seed=3)
    done = False
    while not done:
        last_legal = int(np.flatnonzero(info["action_mask"])[-1])
        observation, reward, terminated, truncated, info = env.step(last_legal)
        done = terminated or truncated
    assert calls and set(calls) == {observation.shape}  # the policy saw its own seat's observation
    env.unwrapped.set_opponents(["greedy", first_legal])
    assert hasattr(env.unwrapped.opponents[1], "choose") and env.unwrapped.policies[2] is first_legal
    with pytest.raises(ValueError, match="one opponent per other seat"):
        env.unwrapped.set_opponents(["greedy"])


def test_a_snapshot_is_frozen_against_later_training():
    class Model:
        def __init__(self):
            self.policy = self

        def predict(self, observation, action_masks=None, deterministic=False):
            return np.flatnonzero(action_masks)[self.choice], None

    model = Model()
    model.choice = 0
    frozen = merchantry_gym.snapshot(model)
    model.choice = -1  # "training" goes on
    mask = np.array([False, True, True, True])
    assert frozen(np.zeros(3), mask) == 1 and merchantry_gym.as_policy(model)(np.zeros(3), mask) == 3


def test_the_margin_reward_is_the_final_margin_over_the_best_other_seat():
    env = pettingzoo.env("grand_bazaar", players=3, reward="margin")
    env.reset(seed=6)
    final, rng = {}, np.random.default_rng(6)
    for agent in env.agent_iter():
        _, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    scores = env.game_state.scores()
    for seat, agent in enumerate(env.possible_agents):
        best_other = max(s for other, s in enumerate(scores) if other != seat)
        margin = (scores[seat] - best_other) / (abs(scores[seat]) + abs(best_other))
        assert final[agent] == pytest.approx(margin)
    assert max(final.values()) > 0 > min(final.values())
    with pytest.raises(ValueError, match="reward must be one of win, margin"):
        pettingzoo.env("money", reward="points")


def test_the_history_option_holds_the_observations_at_the_start_of_past_moves():
    env = gymnasium.make(merchantry_gym.env_id("grand_bazaar"), players=3, history=2)
    size = encoding_of("grand_bazaar").observation_size(3)
    assert env.observation_space.shape == (3 * size,)
    observation, info = env.reset(seed=2)
    assert not observation[size:].any()  # no past move yet
    starts = []
    done = False
    while not done and len(starts) < 4:
        starts.append(observation[:size].copy())
        while True:  # one whole turn: buys and sells up to `done`
            legal = np.flatnonzero(info["action_mask"])
            observation, _, terminated, truncated, info = env.step(int(legal[-1]))
            done = terminated or truncated
            if done or not env.unwrapped.state.in_decision(0):
                break
    assert np.allclose(observation[size : 2 * size], starts[-1])
    assert np.allclose(observation[2 * size :], starts[-2])


@pytest.mark.parametrize("name", sorted({name for name, _ in SETUPS}))
def test_an_illegal_or_unknown_id_is_refused_and_changes_nothing(name):
    """The step takes the chosen action from the position's legal actions (asked once); an id that is not
    among them is refused with the engine's reason (IllegalAction), one out of range says so, and neither
    changes the state, the episode or the mask."""
    from merchantry.errors import IllegalAction

    env = pettingzoo.env(name, players=3)
    env.reset(seed=5)
    observation = env.observe(env.agent_selection)
    mask = observation["action_mask"]
    before, steps = env.game_state.to_dict(), env.table.episode.steps
    illegal = int(np.flatnonzero(mask == 0)[0])
    for bad in (illegal, len(mask), -1):
        with pytest.raises(IllegalAction):
            env.step(bad)
    assert env.game_state.to_dict() == before and env.table.episode.steps == steps
    assert np.array_equal(env.observe(env.agent_selection)["action_mask"], mask)
    assert not mask.flags.writeable  # shared by every position with these legal ids: copy to change it
    env.step(int(np.flatnonzero(mask)[0]))
    assert env.table.episode.steps == steps + 1


def test_masks_kept_where_lists_repeat_and_built_anew_where_they_do_not():
    """A mask is one read-only array of exactly the legal ids. Lists met again share one array; an action
    space that meets only new lists (more than MASKS of them, none twice) stops keeping them, and its masks
    are the same numbers, built anew."""
    from itertools import combinations, islice

    from merchantry.rl.encoding import MASKS, ActionSpace

    repeating = ActionSpace("grand_bazaar", 4)  # a space of its own: `action_space` shares one per game
    assert repeating.mask_of([1, 4]) is repeating.mask_of([1, 4])
    assert repeating.caching
    fresh = ActionSpace("money", 4)
    lists = [list(ids) for ids in islice(combinations(range(len(fresh)), 3), MASKS + 10)]
    masks = [fresh.mask_of(ids) for ids in lists]
    assert not fresh.caching and not fresh.masks
    for ids, mask in zip(lists, masks, strict=True):
        assert mask.dtype == np.int8 and not mask.flags.writeable
        assert np.flatnonzero(mask).tolist() == ids
    assert fresh.mask_of(lists[0]) is not masks[0]
    assert np.array_equal(fresh.mask_of(lists[0]), masks[0])

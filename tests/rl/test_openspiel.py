"""OpenSpiel: every game with an encoding loads with pyspiel.load_game, passes OpenSpiel's own random
simulation test, has information states with perfect recall (OpenSpiel's own criterion, checked on trees of
random games), and OpenSpiel's ISMCTSBot plays whole games of it, unmodified, through
`State.resample_from_infostate` and `pyspiel.evaluate_bots`, the same again from the same seeds."""

from __future__ import annotations

import hashlib
import json
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")  # the optional extra merchantry[openspiel]; make test installs it

from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

from merchantry import games  # noqa: E402
from merchantry.rl import openspiel  # noqa: E402

NAMES = openspiel.register()
GAMES = games.names()


def load(name, players=3, **params):
    return pyspiel.load_game(openspiel.short_name(name), {"players": players, **params})


def test_every_game_is_registered():
    assert [openspiel.short_name(name) for name in GAMES] == NAMES
    assert set(NAMES) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(
    ("name", "players"),
    [(name, n) for name in GAMES for n in sorted({games.get(name).min_players, games.get(name).max_players})],
)
def test_openspiel_random_simulation_test_passes(name, players):
    game = load(name, players, seed=3)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_the_same_seed_parameter_gives_the_same_game():
    game = load("money", seed=9)
    first, second = game.new_initial_state(), game.new_initial_state()
    rng = random.Random(0)
    for _ in range(40):
        assert first.information_state_string(first.current_player()) == second.information_state_string()
        action = rng.choice(first.legal_actions())
        first.apply_action(action)
        second.apply_action(action)


def action_named(state, text):
    return next(a for a in state.legal_actions() if state.action_to_string(a) == text)


def test_adding_a_money_card_and_taking_it_back_is_a_new_information_state():
    """The bug this fixes: after `add X`, `remove X` the information state was what it was before, so
    ISMCTS built a cycle and died of RecursionError."""
    state = load("money", seed=1).new_initial_state()
    seat = state.current_player()
    before = state.information_state_string(seat), state.information_state_tensor(seat)
    card = state.action_to_string(state.legal_actions()[0]).split()[1]
    state.apply_action(action_named(state, f"add {card}"))
    state.apply_action(action_named(state, f"remove {card}"))
    assert state.current_player() == seat
    assert state.observation_string(seat) == json.loads(json.dumps(state.observation_string(seat)))
    assert state.information_state_string(seat) != before[0]
    assert state.information_state_tensor(seat) != before[1]


def digest(text):
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def check_perfect_recall(game, trajectories, rng, depth):
    """OpenSpiel's perfect-recall criterion (integration_tests/api_test.py, `_assert_is_perfect_recall`):
    wherever a player's information state recurs, the sequence of its own earlier information states and
    actions leading there is the same. OpenSpiel walks the whole tree; these games are far too big, so
    this walks a tree of random games that share prefixes: each new game replays a random prefix of an
    earlier one, then goes its own way. Returns how many times an information state recurred."""
    recorded, paths, recurred = {}, [], 0
    for _ in range(trajectories):
        state, own = game.new_initial_state(), {p: [] for p in range(game.num_players())}
        prefix = rng.choice(paths)[: rng.randrange(depth)] if paths else []
        path = []
        while not state.is_terminal() and len(path) < depth:
            player = state.current_player()
            key = (player, digest(state.information_state_string(player)))
            if key in recorded:
                recurred += 1
                assert recorded[key] == own[player], "two histories of different recall share a state"
            else:
                recorded[key] = list(own[player])
            action = prefix[len(path)] if len(path) < len(prefix) else rng.choice(state.legal_actions())
            own[player].append((key[1], action))
            path.append(action)
            state.apply_action(action)
        paths.append(path)
    return recurred


@pytest.mark.parametrize("name", GAMES)
def test_information_states_have_perfect_recall(name):
    recurred = check_perfect_recall(load(name, seed=11), trajectories=40, rng=random.Random(11), depth=120)
    assert recurred > 100  # states were met again along different branches, and every one agreed


def test_the_perfect_recall_check_catches_a_state_that_forgets():
    """Without the player's own actions in it, a Money information state forgets add-then-remove."""

    class Forgetful(openspiel.MerchantryState):
        def information_state_string(self, player=None):
            return json.dumps(self.state.view(player), sort_keys=True)

    game = load("money", seed=11)
    real = game.new_initial_state

    def new_initial_state():
        state = real()
        state.__class__ = Forgetful
        return state

    game.new_initial_state = new_initial_state
    with pytest.raises(AssertionError, match="different recall"):
        check_perfect_recall(game, trajectories=40, rng=random.Random(11), depth=120)


@pytest.mark.parametrize("name", GAMES)
def test_resample_from_infostate_keeps_what_the_player_knows_and_no_more(name):
    game = load(name, players=4, seed=2)
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(player) == state.information_state_string(player)
    assert world.information_state_tensor(player) == state.information_state_tensor(player)
    assert world.legal_actions() == state.legal_actions()
    for other in range(4):
        if other != player:  # another seat's own past actions are its secret
            assert world.episode.own[other] == [openspiel.UNKNOWN]
    if name != "grand_bazaar":  # everything but the price deck is public there
        assert world.state.to_dict() != state.state.to_dict()  # the hidden cards were redealt


def test_resampling_draws_from_the_search_seed_alone():
    def worlds(search_seed):
        state = load("byzanz", seed=2, search_seed=search_seed).new_initial_state()
        return [json.dumps(state.resample_from_infostate(0).state.to_dict()) for _ in range(3)]

    first = worlds(1)
    assert first == worlds(1) and first != worlds(2)
    assert len(set(first)) == 3  # each call draws a new world


def ismcts_game(name, seed, simulations=3, rollout_length=20):
    """OpenSpiel's ISMCTSBot in seat 0 against OpenSpiel's uniform random bots, through pyspiel's
    evaluate_bots; returns the returns and the history."""
    game = load(name, seed=seed, search_seed=seed)
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rs, max_length=rollout_length)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rs)]
    bots += [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(1, 3)]
    state = game.new_initial_state()
    returns = pyspiel.evaluate_bots(state, bots, seed)
    assert state.is_terminal() and state.state.is_over()  # a whole game, played to its end
    return returns, state.history()


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_ismcts_plays_whole_games_reproducibly(name):
    returns, history = ismcts_game(name, seed=5)
    assert sorted(set(returns)) in ([-1.0, 1.0], [1.0])
    assert ismcts_game(name, seed=5) == (returns, history)


def test_openspiel_python_evaluate_bots_works_with_bots_that_restart():
    """open_spiel.python.algorithms.evaluate_bots calls `restart_at`, which OpenSpiel's own Python
    ISMCTSBot does not implement (in any game: kuhn_poker too); with bots that do, it plays our games."""
    game = load("grand_bazaar", seed=1)
    bots = [pyspiel.make_uniform_random_bot(p, p) for p in range(3)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1))
    assert 1.0 in returns


def test_the_old_resampler_callback_still_works():
    game = load("samarkand", seed=5)
    state = game.new_initial_state()
    rs = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 5, random_state=rs)
    bot.set_resampler(openspiel.resampler)
    for _ in range(5):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_legal_actions_answered_in_python_agree_with_pyspiels_own():
    """The state answers `legal_actions` itself (pyspiel's round trip through C++ is slow): the same ids,
    none for a player not to move, and the mask pyspiel builds from them."""
    game = pyspiel.load_game(openspiel.short_name("money"), {"players": 3, "seed": 4})
    state, rng = game.new_initial_state(), random.Random(4)
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        assert legal == state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
        assert all(state.legal_actions(other) == [] for other in range(3) if other != player)
        assert [i for i, legal_id in enumerate(state.legal_actions_mask(player)) if legal_id] == legal
        assert state.observation_tensor(player) == pyspiel.State.observation_tensor(state, player)
        state.apply_action(rng.choice(legal))
    assert state.legal_actions() == []


def _yardstick():
    """benchmarks/vs_openspiel_ismcts.py, imported from its file (benchmarks/ is not a package)."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "vs_openspiel_ismcts.py"
    spec = importlib.util.spec_from_file_location("vs_openspiel_ismcts", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def replayed(name, seed, actions):
    """The engine's own game from the same deal, each action found by its notation among the legal ones of
    the seats to act: its scores and winners, the glue's nowhere in it."""
    state = games.get(name).new_game(players=4, seed=seed)
    for text in actions:
        seat, action = next((s, a) for s in state.to_act() for a in state.legal_actions(s) if str(a) == text)
        state.apply(seat, action)
    assert state.is_over()
    return list(state.scores()), list(state.winners())


def test_the_yardstick_plays_a_level_against_openspiels_ismcts_and_scores_as_the_engine():
    """The glue of the outside yardstick: a short seeded Samarkand game, a level bot (easy: cheap) in seat 2
    against three OpenSpiel ISMCTSBots, ends, and its scores and winners are the engine's for the same moves;
    each side's decisions were timed."""
    yardstick = _yardstick()
    outcome = yardstick.play("samarkand", 3, simulations=2, hard_seat=1, level="easy")
    assert not outcome.truncated
    assert (outcome.scores, outcome.winners) == replayed("samarkand", 29_003, outcome.actions)
    assert outcome.hard.decisions > 0 and outcome.ismcts.decisions > outcome.hard.decisions
    assert outcome.hard_share() == (1 / len(outcome.winners) if 1 in outcome.winners else 0.0)


@pytest.mark.parametrize("name", GAMES)
def test_the_current_player_kept_per_position_is_the_one_worked_out_afresh(name):
    """The table works the current player out once per position (and pinned seat): at every position of
    a seeded game, and in a world sampled for that player (pinned), it is what `to_act()` says now, and
    the observation tensor (kept as a list in step with the observer) is the observer's numbers."""
    game = load(name, players=3, seed=5)
    state, rng = game.new_initial_state(), random.Random(5)
    for _ in range(120):
        if state.is_terminal():
            break
        player = state.current_player()
        assert player == state.table._current_player(state.pinned, openspiel.TERMINAL)
        assert state.observation_tensor(player) == state.view_numbers(player).tolist()
        world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.current_player() == player == world.table._current_player(player, openspiel.TERMINAL)
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == state.table._current_player(None, openspiel.TERMINAL)

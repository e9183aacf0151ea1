"""Every episode ends: an adversary that undoes its own choices forever (it always picks an action that
brings its view back to one it already had in the same move, so a Money bid becomes add X, remove X, ...)
still ends every game of every game in every adapter, by truncation at the documented bound, and scores
the loss it deserves there (never better than losing)."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("gymnasium")  # the optional extra merchantry[rl]; make test installs it
pyspiel = pytest.importorskip("pyspiel")

import gymnasium  # noqa: E402

from merchantry import games  # noqa: E402
from merchantry.engine import State  # noqa: E402
from merchantry.rl import episode, openspiel, pettingzoo  # noqa: E402
from merchantry.rl import gymnasium as merchantry_gym  # noqa: E402
from merchantry.rl.encoding import action_space  # noqa: E402

NAMES = games.names()
PLAYERS = 3
openspiel.register()


class UndoForever:
    """Chooses, for a seat, an action whose result is a view it already had in this move; else one that
    keeps its move going; else the first legal action."""

    def __init__(self, game: str):
        self.space = action_space(game, PLAYERS)
        self.seen: dict[int, set[str]] = {}

    def __call__(self, state: State, seat: int) -> int:
        here = json.dumps(state.view(seat), sort_keys=True)
        seen = self.seen.setdefault(seat, set())
        seen.add(here)
        legal = state.legal_actions(seat)
        continuing = None
        for action in legal:
            after = state.clone()
            after.apply(seat, action)
            if json.dumps(after.view(seat), sort_keys=True) in seen:
                return self.space.id_of(action)
            if continuing is None and seat in after.to_act():
                continuing = action
        self.seen[seat] = set()  # its move ends here: a new one starts with nothing seen
        return self.space.id_of(continuing if continuing is not None else legal[0])


def test_the_bounds_are_far_above_what_play_needs():
    # the longest move in random play is about a hundred actions, the longest random game about 1,500
    assert episode.MOVE_STEPS >= 1_000 and episode.EPISODE_STEPS >= 50 * 1_500


@pytest.mark.parametrize("name", NAMES)
def test_undo_forever_ends_every_pettingzoo_game(name):
    env = pettingzoo.env(name, players=PLAYERS)
    env.reset(seed=3)
    adversary = UndoForever(name)
    steps, final = 0, {}
    for agent in env.agent_iter(max_iter=episode.EPISODE_STEPS):
        _, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            final[agent] = reward
        env.step(None if termination or truncation else adversary(env.game_state, env.seat_of(agent)))
        steps += 1
    assert not env.agents and steps < episode.EPISODE_STEPS
    if not env.game_state.is_over():  # it was truncated: the staller lost, nobody won
        stalled = env.table.episode.stalled
        assert stalled is not None and final[pettingzoo.agent_name(stalled)] == -1.0
        assert sorted(final.values()) == [-1.0, 0.0, 0.0]


def test_undo_forever_is_truncated_in_a_money_bid():
    """The case the bound is for: MO-R1 lets a bid change until it is sealed, so the adversary loops."""
    env = pettingzoo.env("money", players=PLAYERS)
    env.reset(seed=3)
    adversary = UndoForever("money")
    truncated = set()
    for agent in env.agent_iter(max_iter=episode.EPISODE_STEPS):
        _, _, termination, truncation, _ = env.last()
        if truncation:
            truncated.add(agent)
        env.step(None if termination or truncation else adversary(env.game_state, env.seat_of(agent)))
    assert not env.game_state.is_over() and env.table.episode.stalled is not None
    assert truncated == set(env.possible_agents)
    assert env.table.episode.move_steps[env.table.episode.stalled] == episode.MOVE_STEPS + 1


@pytest.mark.parametrize("name", NAMES)
def test_undo_forever_ends_every_parallel_game(name):
    env = pettingzoo.parallel_env(name, players=PLAYERS)
    env.reset(seed=4)
    adversary = UndoForever(name)
    for _ in range(episode.EPISODE_STEPS):
        state = env.game_state
        actions = {pettingzoo.agent_name(seat): adversary(state, seat) for seat in state.to_act()}
        _, rewards, terminations, truncations, _ = env.step(actions)
        if not env.agents:
            break
    assert not env.agents
    if not env.game_state.is_over():
        assert all(truncations.values()) and min(rewards.values()) == -1.0


@pytest.mark.parametrize("name", NAMES)
def test_undo_forever_ends_every_gymnasium_episode_with_a_loss(name):
    env = gymnasium.make(merchantry_gym.env_id(name), players=PLAYERS, opponents="random")
    env.reset(seed=5)
    adversary = UndoForever(name)
    inner = env.unwrapped
    for _ in range(episode.EPISODE_STEPS):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, reward, terminated, truncated, info = env.step(adversary(inner.state, inner.seat))
        if terminated or truncated:
            break
    assert terminated or truncated
    assert "illegal" not in info
    if truncated:  # the learner stalled: it scores a loss, not the 0 a plain time limit would give
        assert reward == -1.0 and inner.table.episode.stalled == inner.seat


@pytest.mark.parametrize("name", NAMES)
def test_undo_forever_ends_every_openspiel_game(name):
    game = pyspiel.load_game(openspiel.short_name(name), {"players": PLAYERS, "seed": 6})
    state = game.new_initial_state()
    adversary = UndoForever(name)
    while not state.is_terminal():
        action = adversary(state.state, state.current_player())
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.is_terminal() and len(state.history()) <= game.max_game_length()
    if not state.state.is_over():
        assert sorted(state.returns()) == [-1.0, 0.0, 0.0]

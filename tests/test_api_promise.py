"""The API's promise (ENGINE.md, errors.py): every bad seat, action, notation, option or record raises a
documented ValueError subclass with a sentence a person understands, and changes nothing. Each public
method is fed odd values of every type, for every game."""

from __future__ import annotations

import random

import pytest

import merchantry
from merchantry import errors, games

DOCUMENTED = (errors.IllegalAction, errors.InvalidOption, errors.InvalidRecord, errors.UnknownGame)


class Strange:
    """An object no method expects, whose repr is long."""

    def __repr__(self) -> str:
        return "Strange(" + "x" * 200 + ")"


ODD = [
    None,
    True,
    False,
    -1,
    10**30,
    -(10**30),
    1.5,
    float("nan"),
    "",
    "P1",
    "0",
    "\x00",
    "bid " * 100,
    b"bid",
    (),
    ("buy", 0),
    [],
    [0],
    {},
    {"seat": 0},
    {0},
    Strange(),
    object,
]


def raises_documented(call, *args, **kwargs) -> str:
    """Call and insist on a documented error with a one-line, readable reason; returns the reason."""
    with pytest.raises(ValueError) as caught:
        call(*args, **kwargs)
    assert isinstance(caught.value, DOCUMENTED), f"{type(caught.value).__name__}: {caught.value}"
    message = str(caught.value)
    assert message and "\n" not in message and len(message) < 400, message
    return message


def a_game_in_play(name: str) -> merchantry.State:
    """A state a few moves in, so that odd values meet a position with choices."""
    game = games.get(name)
    state = game.new_game(players=game.min_players + 1 if game.min_players < 4 else 4, seed=3)
    rng = random.Random(3)
    for _ in range(6):
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


@pytest.mark.parametrize("name", games.names())
def test_every_method_refuses_odd_seats_with_a_documented_error(name):
    state = a_game_in_play(name)
    before = state.to_dict()
    seat = state.to_act()[0]
    action = state.legal_actions(seat)[0]
    rng = random.Random(0)
    for odd in [*ODD, state.num_players, state.num_players + 1]:
        if odd is None:  # None is the spectators' seat for view and sample_hidden
            state.view(None)
            state.sample_hidden(None, rng)
        else:
            raises_documented(state.view, odd)
            raises_documented(state.sample_hidden, odd, rng)
        raises_documented(state.legal_actions, odd)
        raises_documented(state.apply, odd, action)
        raises_documented(state.apply, odd, str(action))
    assert state.to_dict() == before


@pytest.mark.parametrize("name", games.names())
def test_apply_refuses_odd_actions_and_changes_nothing(name):
    state = a_game_in_play(name)
    before = state.to_dict()
    seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    other_games = [g for g in games.names() if g != name]
    foreign = a_game_in_play(other_games[0])
    foreign_action = foreign.legal_actions(foreign.to_act()[0])[0]
    for odd in [*ODD, foreign_action, tuple(legal[0]), str(legal[0]).upper() + " EXTRA"]:
        message = raises_documented(state.apply, seat, odd)
        assert "Traceback" not in message
    assert state.to_dict() == before


@pytest.mark.parametrize("name", games.names())
def test_parse_action_refuses_odd_text(name):
    state = a_game_in_play(name)
    game = state.game
    seat = state.to_act()[0]
    for odd in ODD:  # none of them is a move of any game, the strings included
        raises_documented(game.parse_action, state, seat, odd)


@pytest.mark.parametrize("name", games.names())
def test_sample_hidden_wants_a_random_generator(name):
    state = a_game_in_play(name)
    for odd in [3, "seed", random, 1.5]:
        raises_documented(state.sample_hidden, state.to_act()[0], odd)


@pytest.mark.parametrize("name", games.names())
def test_new_game_refuses_odd_players_seeds_and_options(name):
    game = games.get(name)
    for odd in [o for o in ODD if not (type(o) is int and game.min_players <= o <= game.max_players)]:
        raises_documented(game.new_game, players=odd, seed=1)
    for odd in [o for o in ODD if type(o) is not int]:
        raises_documented(game.new_game, players=game.min_players, seed=odd)
    raises_documented(game.new_game, players=game.min_players, no_such_option=1)
    for option in game.options():
        for odd in ODD:
            if game.option_values()[option].accepts(odd):
                continue
            message = raises_documented(game.new_game, players=game.min_players, **{option: odd})
            assert option in message and game.option_values()[option].text in message


@pytest.mark.parametrize("name", games.names())
def test_from_dict_refuses_odd_records(name):
    game = games.get(name)
    state = a_game_in_play(name)
    good = state.to_dict()
    for odd in ODD:
        raises_documented(game.from_dict, odd)
    for key in good:
        for odd in (None, -1, "x", [], {}, 10**30):
            broken = {**good, key: odd}
            try:
                game.from_dict(broken)
            except ValueError as exc:
                assert isinstance(exc, DOCUMENTED), f"{key}={odd!r}: {type(exc).__name__}: {exc}"
    raises_documented(game.from_dict, {**good, "options": {"no_such_option": 1}})


def test_an_unknown_game_is_a_documented_error():
    for odd in ["", "chess", None, 3]:
        with pytest.raises(errors.UnknownGame):
            games.get(odd)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", games.names())
def test_every_option_declares_the_values_it_accepts(name):
    game = games.get(name)
    allowed = game.option_values()
    assert set(allowed) == set(game.options())
    for option, (default, description) in game.options().items():
        assert allowed[option].accepts(default), option
        assert description and allowed[option].text
        assert not allowed[option].accepts(10**30), option
    refused = raises_documented(
        game.new_game, players=game.min_players, **dict.fromkeys(game.options(), 10**30)
    )
    assert "must be" in refused

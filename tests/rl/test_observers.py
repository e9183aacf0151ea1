"""Each game's observer (its observation encoded from the state, issue 30) against its encoding of
`view(seat)`, the reference: the same numbers on every position of seeded random games (for the seats to
act and one other seat in turn), whether the observer has followed the game (its caches) or meets the
position fresh. And an
observation is a function of the seat's information set: a world sampled for the seat (`sample_hidden`,
which keeps `view(seat)`) gives the same observation, so nothing the seat may not see leaks in."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")  # the optional extra merchantry[rl]; make test installs it

from merchantry import games  # noqa: E402
from merchantry.rl.encoding import BOUND, Counts, Numbers, encoding_of, numbers_of, observer_of  # noqa: E402

SETUPS = [
    (name, players)
    for name in games.names()
    for players in range(games.get(name).min_players, games.get(name).max_players + 1)
]
WORLD_EVERY = 7  # positions between two sampled worlds (sampling is the slow part)


def reference(name: str, state, seat: int, players: int) -> np.ndarray:
    return np.asarray(encoding_of(name).observe(state.view(seat), players), np.float32)


def positions(name: str, players: int, seed: int):
    """Every position of a seeded random game, the final one included."""
    state = games.get(name).new_game(players=players, seed=seed)
    rng = random.Random(seed)
    while True:
        yield state
        if state.is_over():
            return
        seat = rng.choice(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("setup", SETUPS, ids=lambda setup: f"{setup[0]}-{setup[1]}p")
def test_every_observer_gives_its_encodings_numbers_on_every_position(setup):
    name, players = setup
    encoding = encoding_of(name)
    assert hasattr(encoding, "observer"), f"{name} encodes its observations from the view"
    size = encoding.observation_size(players)
    following = [observer_of(encoding, players, seat) for seat in range(players)]
    for step, state in enumerate(positions(name, players, seed=players)):
        # the seats to act and one other in turn: every seat at every position costs twice the time; an
        # observer that skips positions must still be right (its caches hold what it last wrote, from any
        # earlier position), as an AEC agent's observer is asked only on its turns
        for seat in {*state.to_act(), step % players}:
            expected = reference(name, state, seat, players)
            seen = following[seat].observe(state)
            assert seen.dtype == np.float32 and seen.shape == (size,)
            assert np.array_equal(seen, expected), (
                f"seat {seat}, step {step}: {np.flatnonzero(seen != expected)}"
            )
            assert np.abs(seen).max(initial=0.0) <= BOUND
        if step % WORLD_EVERY == 0:
            seat = step % players
            fresh = observer_of(encoding, players, seat).observe(state)
            assert np.array_equal(fresh, following[seat].observe(state)), (
                f"step {step}: a fresh observer differs"
            )


@pytest.mark.parametrize("setup", SETUPS, ids=lambda setup: f"{setup[0]}-{setup[1]}p")
def test_an_observation_is_a_function_of_the_seats_information_set(setup):
    """Two states the seat cannot tell apart (the real one, and a world sampled for it) give the same
    observation, from an observer that has followed the real game and from one that follows the worlds."""
    name, players = setup
    encoding = encoding_of(name)
    following = [observer_of(encoding, players, seat) for seat in range(players)]
    in_worlds = [observer_of(encoding, players, seat) for seat in range(players)]
    rng = random.Random(players)
    for step, state in enumerate(positions(name, players, seed=100 + players)):
        for seat in range(players):
            seen = following[seat].observe(state)
            if step % WORLD_EVERY == seat % WORLD_EVERY or state.is_over():
                world = state.sample_hidden(seat, rng)
                assert world.view(seat) == state.view(seat)  # the premise: the seat cannot tell them apart
                assert np.array_equal(in_worlds[seat].observe(world), seen), f"seat {seat}, step {step}"
                assert np.array_equal(following[seat].observe(state), seen)  # and back: no stale part


def test_a_counts_part_holds_the_counts_of_the_indices_written_last():
    """`Counts` (the card vectors of Money and Byzanz) rewrites only what changed, from fixed lists of
    counts: after each write its numbers are the counts of that write's indices, whatever came before
    (repeated indices, indices gone, an empty write), and it writes nothing outside its part."""
    out = np.full(12, -7.0, np.float32)
    out[2:10] = 0.0  # as an observer's buffer starts
    counts = Counts(numbers_of(out), start=2, divisor=4, size=8)
    rng = random.Random(5)
    writes = [[], [3, 3, 1], [3, 1, 1], [], [7, 0, 0, 0, 7]]
    writes += [[rng.randrange(8) for _ in range(rng.randrange(6))] for _ in range(200)]
    for indices in writes:
        counts.write(indices)
        expected = [indices.count(index) / 4 for index in range(8)]
        assert out[2:10].tolist() == expected, indices
        assert out[:2].tolist() == [-7.0, -7.0] and out[10:].tolist() == [-7.0, -7.0]


@pytest.mark.parametrize("setup", SETUPS, ids=lambda setup: f"{setup[0]}-{setup[1]}p")
def test_an_observers_list_is_its_array_as_floats(setup):
    """`listed` (OpenSpiel's tensors, a list kept beside the array) gives exactly `observe(...).tolist()`,
    float32 values included, whether it is asked at every position, now and then (the writes in between
    noted), or after more writes than it notes (rebuilt whole); and an observer never asked for a list
    keeps a bounded note of its writes."""
    name, players = setup
    encoding = encoding_of(name)
    size = encoding.observation_size(players)
    every = [observer_of(encoding, players, seat) for seat in range(players)]
    now_and_then = [observer_of(encoding, players, seat) for seat in range(players)]
    never = [observer_of(encoding, players, seat) for seat in range(players)]
    for step, state in enumerate(positions(name, players, seed=players + 10)):
        for seat in range(players):
            numbers = every[seat].observe(state)
            listed = every[seat].listed(state)
            assert listed == numbers.tolist() and listed is not every[seat].listed(state)
            numbers = now_and_then[seat].observe(state)
            if step % (seat * 40 + 3) == 0:
                assert now_and_then[seat].listed(state) == numbers.tolist(), f"seat {seat}, step {step}"
            never[seat].observe(state)
            if isinstance(never[seat].numbers, Numbers):  # compiled (pure Python writes a memoryview)
                assert len(never[seat].numbers.written) <= size
    for seat in range(players):
        assert never[seat].listed(state) == never[seat].observe(state).tolist()


def test_a_list_is_rebuilt_whole_after_more_writes_than_it_notes():
    out = np.zeros(3, np.float32)
    numbers = Numbers(out)  # as compiled observers write
    for value in (0.1, 0.2, 1 / 3, 0.7):  # four writes to three numbers: past the note's bound
        numbers[1] = value
    numbers[2] = 0.3
    assert numbers.listed() == out.tolist() == [0.0, np.float32(0.7).item(), np.float32(0.3).item()]
    numbers[0] = 0.1
    assert numbers.listed() == out.tolist()  # and noted again afterwards
